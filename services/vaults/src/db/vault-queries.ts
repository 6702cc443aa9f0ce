import { and, desc, eq, inArray, isNull, lt, or, type Column, type SQL } from 'drizzle-orm';
import type { Database } from '../../../../shared/db/connect';
import type { PagePosition } from '../../../../shared/schema/common';
import type { Tenant } from '../../../../shared/schema/tenant';
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

/** Keyset condition for newest-first lists: rows strictly after the previous page's last row. */
export function afterPosition(
  createdAt: Column,
  id: Column,
  after: PagePosition | null,
): SQL | undefined {
  if (!after) return undefined;
  const at = new Date(after.created_at);
  return or(lt(createdAt, at), and(eq(createdAt, at), lt(id, after.id)));
}

/** One page of a tenant's vaults plus one row, newest first, so the caller knows if more follow. */
export async function listVaultsAfter(
  db: Executor,
  tenant: TenantKey,
  options: { includeArchived: boolean; after: PagePosition | null; limit: number },
): Promise<VaultRow[]> {
  return db
    .select()
    .from(vaults)
    .where(
      and(
        inTenant(tenant),
        options.includeArchived ? undefined : isNull(vaults.archivedAt),
        afterPosition(vaults.createdAt, vaults.id, options.after),
      ),
    )
    .orderBy(desc(vaults.createdAt), desc(vaults.id))
    .limit(options.limit + 1);
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

/** Turns a fetched `limit + 1` rows into the page and where it stopped. */
export function pageOf<T extends { createdAt: Date; id: string }>(rows: T[], limit: number) {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const next: PagePosition | null =
    rows.length > limit && last ? { created_at: last.createdAt.toISOString(), id: last.id } : null;
  return { page, next };
}
