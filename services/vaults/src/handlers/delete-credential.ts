import type { Handler } from '@shared/bus/bus-server';
import type { vaultCredentialSubjects } from '@shared/bus/subjects/vaults';
import { deleteCredentialRow, findCredential } from '../db/credential-queries';
import { findVault } from '../db/vault-queries';
import { credentialNotFound, tenantOf, vaultNotFound, type VaultsDeps } from './deps';

type S = typeof vaultCredentialSubjects.delete;

export const deleteCredential =
  (deps: VaultsDeps): Handler<S> =>
  async ({ vault_id, credential_id }, ctx) => {
    const tenant = tenantOf(ctx);
    await deps.db.transaction(async (tx) => {
      if (!(await findVault(tx, tenant, vault_id, { forUpdate: true }))) throw vaultNotFound(vault_id);
      if (!(await findCredential(tx, vault_id, credential_id))) throw credentialNotFound(credential_id);
      await deleteCredentialRow(tx, credential_id);
    });
    return { type: 'vault_credential_deleted' as const, id: credential_id };
  };
