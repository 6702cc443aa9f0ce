import { keysetAfter, newestFirst, readPage } from '@shared/db/keyset-page';
import { and, eq, inArray, isNull, type SQL } from 'drizzle-orm';
import type { Database } from '@shared/db/connect';
import type { PagePosition } from '@shared/schema/common';
import type { Tenant } from '@shared/schema/tenant';
import { vaults, type VaultRow } from './schema';

/** A drizzle database or an open transaction on it. */
export type Executor = Pick<Database, 'select' | 'insert' | 'update' | 'delete'>;

type TenantKey = Pick<Tenant, 'organization_id' | 'workspace_id'>;

const inTenant = (tenant: TenantKey): SQL =>
  and(eq(vaults.organizationId, tenant.organization_id), eq(vaults.workspaceId, tenant.workspace_id))!;

/** The vault with this id in this tenant; another tenant's vault is simply not found. */
export async function findVault(
  db: Executor,
  tenant: TenantKey,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<VaultRow | undefined> {
  const query = db.select().from(vaults).where(and(eq(vaults.id, id), inTenant(tenant))).limit(1);
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row;
}

export async function findVaultsByIds(db: Executor, tenant: TenantKey, ids: string[]): Promise<VaultRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(vaults).where(and(inTenant(tenant), inArray(vaults.id, ids)));
}

/** Vault states only (no key material), for reference checks. */
export async function findVaultStates(db: Executor, tenant: TenantKey, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: vaults.id, archivedAt: vaults.archivedAt })
    .from(vaults)
    .where(and(inTenant(tenant), inArray(vaults.id, ids)));
}

/** One page of a tenant's vaults, newest first, read in chunks within the page byte budget. */
export function listVaultPage<T>(
  db: Executor,
  tenant: TenantKey,
  options: { includeArchived: boolean; after: PagePosition | null; limit: number },
  present: (row: VaultRow) => T,
): Promise<{ data: T[]; next: PagePosition | null }> {
  const readChunk = (from: PagePosition | null, count: number) =>
    db
      .select()
      .from(vaults)
      .where(and(inTenant(tenant), options.includeArchived ? undefined : isNull(vaults.archivedAt), keysetAfter(vaults, from)))
      .orderBy(...newestFirst(vaults))
      .limit(count);
  return readPage(readChunk, options.after, options.limit, present);
}

export async function insertVault(db: Executor, row: VaultRow): Promise<void> {
  await db.insert(vaults).values(row);
}

export async function updateVault(
  db: Executor,
  id: string,
  changes: Partial<Pick<VaultRow, 'displayName' | 'metadata' | 'updatedAt' | 'archivedAt'>>,
): Promise<void> {
  await db.update(vaults).set(changes).where(eq(vaults.id, id));
}

export async function deleteVaultRow(db: Executor, id: string): Promise<void> {
  await db.delete(vaults).where(eq(vaults.id, id));
}
