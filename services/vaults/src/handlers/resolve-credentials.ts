import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { vaultCredentialSubjects } from '@shared/bus/subjects/vaults';
import { DecryptionError } from '@shared/crypto/aead';
import { unwrapDataKey } from '@shared/crypto/envelope';
import type { ResolveCredentialsReply, ResolvedCredential } from '@shared/schema/vault-credential';
import { activeCredentialsOfVaults } from '../db/credentials';
import type { VaultCredentialRow, VaultRow } from '../db/schema';
import { findVaults } from '../db/vaults';
import { openAuth, UnreadableCredential } from '../domain/sealed-auth';
import type { VaultsDeps } from '../deps';

type S = typeof vaultCredentialSubjects.resolve;
type ResolvedVault = ResolveCredentialsReply['vaults'][number];

/** A fixed wording per cause: an error's own message could quote what it failed on. */
function unreadableReason(deps: VaultsDeps, vault: VaultRow, err: unknown): string {
  if (!deps.keys.has(vault.dataKeyId)) return 'the master key wrapping this vault\'s data key is not configured';
  if (err instanceof DecryptionError) return 'a data key or ciphertext did not authenticate';
  if (err instanceof UnreadableCredential) return err.message;
  return 'unexpected failure';
}

/**
 * Opens every active credential of a vault, or none: a vault whose data key cannot be
 * unwrapped, or any of whose ciphertexts fails to authenticate (tampered, or moved from
 * another row), is `unreadable` and contributes nothing. Reasons are logged, never secrets.
 */
function openVault(deps: VaultsDeps, vault: VaultRow, rows: VaultCredentialRow[]): ResolvedCredential[] {
  const dataKey = unwrapDataKey(deps.keys, { keyId: vault.dataKeyId, wrapped: vault.wrappedDataKey }, vault.id);
  try {
    return rows.map((row) => {
      if (row.sealedSecret === null) throw new UnreadableCredential('active credential without a secret');
      return { id: row.id, display_name: row.displayName, auth: openAuth(dataKey, row.sealedSecret, row.id, row.kind) };
    });
  } finally {
    dataKey.fill(0);
  }
}

/** For the fire path and agent runtime: decrypted credentials per vault, in request order. */
export const resolveCredentials =
  (deps: VaultsDeps): Handler<S> =>
  async ({ vault_ids }, ctx) => {
    const tenant = tenantOf(ctx);
    const ids = [...new Set(vault_ids)];
    const vaults = new Map((await findVaults(deps.db, tenant, ids)).map((v) => [v.id, v]));
    const usable = [...vaults.values()].filter((v) => !v.archivedAt).map((v) => v.id);
    const credentialRows = await activeCredentialsOfVaults(deps.db, usable);

    const resolved = new Map<string, ResolvedVault>();
    for (const id of ids) {
      const vault = vaults.get(id);
      if (!vault) {
        resolved.set(id, { id, state: 'not_found', credentials: [] });
        continue;
      }
      if (vault.archivedAt) {
        resolved.set(id, { id, state: 'archived', credentials: [] });
        continue;
      }
      try {
        const credentials = openVault(deps, vault, credentialRows.filter((r) => r.vaultId === id));
        resolved.set(id, { id, state: 'ok', credentials });
      } catch (err) {
        deps.logger.error('vault credentials could not be opened', {
          request_id: ctx.request_id,
          vault_id: id,
          data_key_id: vault.dataKeyId,
          reason: unreadableReason(deps, vault, err),
        });
        resolved.set(id, { id, state: 'unreadable', credentials: [] });
      }
    }
    return { vaults: vault_ids.map((id) => resolved.get(id)!) };
  };
