import { and, eq, type SQL } from 'drizzle-orm';
import type { MySqlColumn, MySqlTable } from 'drizzle-orm/mysql-core';
import type { TenantIds } from '../schema/tenant';
import type { Executor, ReadOptions } from './executor';
import { ownedBy, type TenantColumns } from './owned-by';

/** A table whose rows belong to a tenant and are addressed by an `id` column. */
export type OwnedTable = MySqlTable & TenantColumns & { id: MySqlColumn };

/**
 * The tenant's row with this id, or undefined (missing, or another tenant's: the two look the
 * same). With `lock`, the row stays locked (FOR UPDATE) until the transaction ends. `within`
 * narrows where it may be (a memory of this store): outside it, it is missing too.
 */
export async function findOwnedRow<T extends OwnedTable>(
  db: Executor,
  table: T,
  tenant: TenantIds,
  id: string,
  options: ReadOptions = {},
  within?: SQL,
): Promise<T['$inferSelect'] | undefined> {
  const query = db
    .select()
    .from(table as MySqlTable)
    .where(and(eq(table.id, id), ownedBy(table, tenant), within));
  const [row] = options.lock ? await query.for('update') : await query;
  return row as T['$inferSelect'] | undefined;
}
