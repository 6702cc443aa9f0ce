import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { vaultCredentialSubjects } from '@shared/bus/subjects/vaults';
import { findVaultCredential, markCredentialArchived } from '../db/credentials';
import { foundVaultCredential } from '../domain/not-found';
import { presentCredential } from '../domain/present';
import type { VaultsDeps } from '../deps';

type S = typeof vaultCredentialSubjects.archive;

/** One-way and idempotent; the record stays for reference, its sealed secret is destroyed. */
export const archiveCredential =
  (deps: VaultsDeps): Handler<S> =>
  async ({ vault_id, credential_id }, ctx) => {
    const tenant = tenantOf(ctx);
    return deps.db.transaction(async (tx) => {
      const found = await findVaultCredential(tx, tenant, vault_id, credential_id, { lock: true });
      const { credential } = foundVaultCredential(found, vault_id, credential_id);
      if (credential.archivedAt) return presentCredential(credential);
      const now = deps.clock.now();
      await markCredentialArchived(tx, credential_id, now);
      return presentCredential({ ...credential, archivedAt: now, updatedAt: now, sealedSecret: null });
    });
  };
