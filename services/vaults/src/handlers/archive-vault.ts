import type { Handler } from '@shared/bus/bus-server';


import type { vaultSubjects } from '@shared/bus/subjects/vaults';
import { changeVault } from './locked-change';
import { vaultWrites } from '../db/vaults';
import { presentVault } from '../domain/present';
import type { VaultsDeps } from '../deps';

type S = typeof vaultSubjects.archive;

/** Archiving is one-way and idempotent: archiving again returns the vault as it is. */
export const archiveVault =
  (deps: VaultsDeps): Handler<S> =>
  ({ vault_id }, ctx) =>
    changeVault(deps, ctx, vault_id, async (tx, row) => {
      if (row.archivedAt) return presentVault(row);
      const now = deps.clock.now();
      await vaultWrites.update(tx, vault_id, { archivedAt: now, updatedAt: now });
      return presentVault({ ...row, archivedAt: now, updatedAt: now });
    });
