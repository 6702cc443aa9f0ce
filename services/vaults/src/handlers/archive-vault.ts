import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import { found } from '@shared/errors/api-error';
import type { vaultSubjects } from '@shared/bus/subjects/vaults';
import { findVault, updateVault } from '../db/vaults';
import { presentVault } from '../domain/present';
import { vaultNotFound } from '../domain/not-found';
import type { VaultsDeps } from '../deps';

type S = typeof vaultSubjects.archive;

/** Archiving is one-way and idempotent: archiving again returns the vault as it is. */
export const archiveVault =
  (deps: VaultsDeps): Handler<S> =>
  async ({ vault_id }, ctx) => {
    const tenant = tenantOf(ctx);
    return deps.db.transaction(async (tx) => {
      const row = found(await findVault(tx, tenant, vault_id, { lock: true }), () => vaultNotFound(vault_id));
      if (row.archivedAt) return presentVault(row);
      const now = deps.clock.now();
      await updateVault(tx, vault_id, { archivedAt: now, updatedAt: now });
      return presentVault({ ...row, archivedAt: now, updatedAt: now });
    });
  };
