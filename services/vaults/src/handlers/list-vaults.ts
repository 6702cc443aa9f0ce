import type { Handler } from '../../../../shared/bus/bus-server';
import type { vaultSubjects } from '../../../../shared/bus/subjects/vaults';
import { toPage } from '../../../../shared/db/keyset-page';
import { listVaultsAfter } from '../db/vault-queries';
import { presentVault } from '../domain/present';
import { tenantOf, type VaultsDeps } from './deps';

type S = typeof vaultSubjects.list;

export const listVaults =
  (deps: VaultsDeps): Handler<S['request'], S['reply']> =>
  async ({ filters, limit, after }, ctx) => {
    const rows = await listVaultsAfter(deps.db, tenantOf(ctx), {
      includeArchived: filters.include_archived,
      after,
      limit,
    });
    return toPage(rows, limit, presentVault);
  };
