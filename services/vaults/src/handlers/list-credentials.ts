import type { Handler } from '@shared/bus/bus-server';
import type { vaultCredentialSubjects } from '@shared/bus/subjects/vaults';
import { listCredentialPage } from '../db/credential-queries';
import { findVault } from '../db/vault-queries';
import { presentCredential } from '../domain/present';
import { tenantOf, vaultNotFound, type VaultsDeps } from './deps';

type S = typeof vaultCredentialSubjects.list;

export const listCredentials =
  (deps: VaultsDeps): Handler<S> =>
  async ({ filters, limit, after }, ctx) => {
    if (!(await findVault(deps.db, tenantOf(ctx), filters.vault_id))) throw vaultNotFound(filters.vault_id);
    return listCredentialPage(deps.db, filters.vault_id, { includeArchived: filters.include_archived, after, limit }, presentCredential);
  };
