import { rowWrites } from '@shared/db/row-writes';
import type { TenantPageReader } from '@shared/db/keyset-page';
import { archivedConditions } from '@shared/db/list-filters';
import { and, inArray } from 'drizzle-orm';
import type { Executor, ReadOptions } from '@shared/db/executor';
import { findOwnedRow } from '@shared/db/find-owned-row';
import { readNewestFirstPage } from '@shared/db/newest-first-page';
import { ownedBy } from '@shared/db/owned-by';
import type { Tenant } from '@shared/schema/tenant';
import type { VaultListFilters } from '@shared/schema/vault';
import { vaults, type VaultRow } from './schema';

/** The vault with this id in this tenant; another tenant's vault is simply not found. */
export const findVault = (db: Executor, tenant: Tenant, id: string, options?: ReadOptions): Promise<VaultRow | undefined> =>
  findOwnedRow(db, vaults, tenant, id, options);

/** The tenant's vaults among `ids`, whole rows (with the wrapped data key), in no order. */
export async function findVaults(db: Executor, tenant: Tenant, ids: string[]): Promise<VaultRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(vaults).where(and(ownedBy(vaults, tenant), inArray(vaults.id, ids)));
}

/** Vault states only (no key material), for reference checks. */
export async function findVaultStates(db: Executor, tenant: Tenant, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: vaults.id, archivedAt: vaults.archivedAt })
    .from(vaults)
    .where(and(ownedBy(vaults, tenant), inArray(vaults.id, ids)));
}

/** One page of a tenant's vaults, newest first. */
export const listVaultPage: TenantPageReader<VaultListFilters, VaultRow> = (db, tenant, request, present) => {
  const archived = archivedConditions(vaults.archivedAt, request.filters.include_archived);
  return readNewestFirstPage(db, vaults, [ownedBy(vaults, tenant), ...archived], request, present);
};

/**
 * New, changed and deleted vaults. Deleting the row takes its wrapped data key with it: what was
 * sealed under that key is unreadable from then on.
 */
export const vaultWrites = rowWrites<typeof vaults, 'displayName' | 'metadata' | 'updatedAt' | 'archivedAt'>(vaults);
