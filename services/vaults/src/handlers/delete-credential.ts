import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { vaultCredentialSubjects } from '@shared/bus/subjects/vaults';
import { deleteCredential as deleteCredentialRow, findVaultCredential } from '../db/credentials';
import { foundVaultCredential } from '../domain/not-found';
import type { VaultsDeps } from '../deps';

type S = typeof vaultCredentialSubjects.delete;

export const deleteCredential =
  (deps: VaultsDeps): Handler<S> =>
  async ({ vault_id, credential_id }, ctx) => {
    const tenant = tenantOf(ctx);
    await deps.db.transaction(async (tx) => {
      foundVaultCredential(await findVaultCredential(tx, tenant, vault_id, credential_id, { lock: true }), vault_id, credential_id);
      await deleteCredentialRow(tx, credential_id);
    });
    return { type: 'vault_credential_deleted' as const, id: credential_id };
  };
