import type { Handler } from '@shared/bus/bus-server';
import type { vaultSubjects } from '@shared/bus/subjects/vaults';
import { listVaultPage } from '../db/vault-queries';
import { presentVault } from '../domain/present';
import { tenantOf, type VaultsDeps } from './deps';

type S = typeof vaultSubjects.list;

export const listVaults =
  (deps: VaultsDeps): Handler<S> =>
  async ({ filters, limit, after }, ctx) => {
    return listVaultPage(deps.db, tenantOf(ctx), { includeArchived: filters.include_archived, after, limit }, presentVault);
  };
