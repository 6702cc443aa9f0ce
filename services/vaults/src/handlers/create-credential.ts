import type { Handler } from '@shared/bus/bus-server';
import type { vaultCredentialSubjects } from '@shared/bus/subjects/vaults';
import { unwrapDataKey } from '@shared/crypto/envelope';
import { conflict, invalidRequest } from '@shared/errors/api-error';
import { newId } from '@shared/ids/ids';
import { changeVault } from './locked-change';
import { activeCredentialWithTarget, insertCredential } from '../db/credentials';
import { describeTarget, prepareAuth } from '../domain/credential-auth';
import { presentCredential } from '../domain/present';
import { sealAuth } from '../domain/sealed-auth';
import type { VaultsDeps } from '../deps';

type S = typeof vaultCredentialSubjects.create;

/**
 * Seals the secret with the vault's data key, bound to the new credential's id, inside a
 * transaction that holds the vault row: a concurrent delete either runs first (404 here) or
 * waits and then takes this credential with it.
 */
export const createCredential =
  (deps: VaultsDeps): Handler<S> =>
  async ({ vault_id, credential }, ctx) => {
    const now = deps.clock.now();
    const auth = prepareAuth(credential.auth, now, { expiryMustBeFuture: true, mcpUrls: deps.mcpUrls });
    const metadata = credential.metadata ?? {};
    return changeVault(deps, ctx, vault_id, async (tx, vault) => {
      if (vault.archivedAt) throw invalidRequest(`vault ${vault_id} is archived; it takes no new credentials`);
      if (await activeCredentialWithTarget(tx, vault_id, auth.target)) {
        throw conflict(`vault ${vault_id} already has an active credential for ${describeTarget(auth.target)}`);
      }
      const id = newId('credential');
      const dataKey = unwrapDataKey(deps.keys, { keyId: vault.dataKeyId, wrapped: vault.wrappedDataKey }, vault.id);
      let sealed: string;
      try {
        sealed = sealAuth(dataKey, auth.sealed, id);
      } finally {
        dataKey.fill(0);
      }
      const row = {
        id,
        vaultId: vault_id,
        displayName: credential.display_name ?? null,
        kind: auth.shown.type,
        target: auth.target,
        auth: auth.shown,
        metadata,
        sealedSecret: sealed,
        createdAt: now,
        updatedAt: now,
        archivedAt: null,
      };
      await insertCredential(tx, row);
      return presentCredential(row);
    });
  };
