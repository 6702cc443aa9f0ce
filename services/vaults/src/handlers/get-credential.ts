import type { Handler } from '@shared/bus/bus-server';
import type { vaultCredentialSubjects } from '@shared/bus/subjects/vaults';
import { findCredential } from '../db/credential-queries';
import { findVault } from '../db/vault-queries';
import { presentCredential } from '../domain/present';
import { credentialNotFound, tenantOf, vaultNotFound, type VaultsDeps } from './deps';

type S = typeof vaultCredentialSubjects.get;

export const getCredential =
  (deps: VaultsDeps): Handler<S> =>
  async ({ vault_id, credential_id }, ctx) => {
    if (!(await findVault(deps.db, tenantOf(ctx), vault_id))) throw vaultNotFound(vault_id);
    const row = await findCredential(deps.db, vault_id, credential_id);
    if (!row) throw credentialNotFound(credential_id);
    return presentCredential(row);
  };
