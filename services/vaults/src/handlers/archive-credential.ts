import type { Handler } from '@shared/bus/bus-server';
import type { vaultCredentialSubjects } from '@shared/bus/subjects/vaults';
import { archiveCredentialRow, findCredential } from '../db/credential-queries';
import { findVault } from '../db/vault-queries';
import { presentCredential } from '../domain/present';
import { credentialNotFound, tenantOf, vaultNotFound, type VaultsDeps } from './deps';

type S = typeof vaultCredentialSubjects.archive;

/** One-way and idempotent; the record stays for reference, its sealed secret is destroyed. */
export const archiveCredential =
  (deps: VaultsDeps): Handler<S> =>
  async ({ vault_id, credential_id }, ctx) => {
    const tenant = tenantOf(ctx);
    return deps.db.transaction(async (tx) => {
      if (!(await findVault(tx, tenant, vault_id, { forUpdate: true }))) throw vaultNotFound(vault_id);
      const row = await findCredential(tx, vault_id, credential_id);
      if (!row) throw credentialNotFound(credential_id);
      if (row.archivedAt) return presentCredential(row);
      const now = deps.clock.now();
      await archiveCredentialRow(tx, credential_id, now);
      return presentCredential({ ...row, archivedAt: now, updatedAt: now, sealedSecret: null });
    });
  };
