import type { Handler } from '@shared/bus/bus-server';
import type { vaultCredentialSubjects } from '@shared/bus/subjects/vaults';
import { unwrapDataKey } from '@shared/crypto/envelope';
import { invalidRequest } from '@shared/errors/api-error';
import { changeCredential } from './locked-change';
import { updateCredential as updateCredentialRow } from '../db/credentials';
import { mergeAuthUpdate, prepareAuth } from '../domain/credential-auth';
import { applyMetadataPatch } from '@shared/metadata/apply-metadata-patch';
import { presentCredential } from '../domain/present';
import { openAuth, sealAuth } from '../domain/sealed-auth';
import type { VaultsDeps } from '../deps';

type S = typeof vaultCredentialSubjects.update;

/**
 * Patches a credential. An auth change opens the stored auth with the vault's data key, merges
 * the update and seals the result again under the same record id; the secret is never returned.
 */
export const updateCredential =
  (deps: VaultsDeps): Handler<S> =>
  async ({ vault_id, credential_id, update }, ctx) => {
    const now = deps.clock.now();
    return changeCredential(deps, ctx, { vault_id, credential_id }, async (tx, { vault, credential: row }) => {
      if (vault.archivedAt) throw invalidRequest(`vault ${vault_id} is archived and its credentials cannot be changed`);
      if (row.archivedAt || row.sealedSecret === null) {
        throw invalidRequest(`credential ${credential_id} is archived and cannot be changed`);
      }
      const next = {
        ...row,
        displayName: update.display_name ?? row.displayName,
        metadata: applyMetadataPatch(row.metadata, update.metadata),
        updatedAt: now,
      };
      if (update.auth) {
        const dataKey = unwrapDataKey(deps.keys, { keyId: vault.dataKeyId, wrapped: vault.wrappedDataKey }, vault.id);
        try {
          const merged = mergeAuthUpdate(openAuth(dataKey, row.sealedSecret, row.id, row.kind), update.auth);
          const prepared = prepareAuth(merged, now, {
            expiryMustBeFuture: update.auth.type === 'mcp_oauth' && !!update.auth.expires_at,
            mcpUrls: null,
          });
          next.auth = prepared.shown;
          next.sealedSecret = sealAuth(dataKey, prepared.sealed, row.id);
        } finally {
          dataKey.fill(0);
        }
      }
      await updateCredentialRow(tx, row.id, {
        displayName: next.displayName,
        metadata: next.metadata,
        auth: next.auth,
        sealedSecret: next.sealedSecret,
        updatedAt: next.updatedAt,
      });
      return presentCredential(next);
    });
  };
