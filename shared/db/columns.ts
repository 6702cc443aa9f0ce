import { bigint, datetime, varchar } from 'drizzle-orm/mysql-core';
import type { TenantIds } from '../schema/tenant';

/**
 * The column groups every service's tables are built from. Each is a function so that every
 * table gets fresh builders; spread them where the columns stand, since a table's column order
 * is its migration's.
 */

/** An instant to the millisecond, read and written as a Date. */
export const instant = (name: string) => datetime(name, { mode: 'date', fsp: 3 });

/** A row id as `newId` makes them. */
export const rowId = (name = 'id') => varchar(name, { length: 40 });

/** The tenant a row belongs to; every read of it carries `ownedBy` on these. */
export const tenantColumns = () => ({
  organizationId: varchar('organization_id', { length: 64 }).notNull(),
  workspaceId: varchar('workspace_id', { length: 64 }).notNull(),
});

/** A tenant's row addressed by its id: the columns `findOwnedRow` reads by. */
export const ownedRowColumns = () => ({
  id: rowId().primaryKey(),
  ...tenantColumns(),
});

/**
 * The same for a table that grows fast and for good (deployments): its clustered key is an
 * insertion counter, so new rows append to the table's last pages, where a random id as primary
 * key put each on a page of its own, read from disk once the table outgrew the buffer pool
 * (measured: 50 MB/s of reads and a 20 ms transaction p99 at 800,000 rows, docs/performance.md).
 * The id stays the row's address through a unique key (`uniqueIndex(<table>_id)` in the table),
 * narrow enough to stay cached; `seq` is never shown or read.
 */
export const appendedRowColumns = () => ({
  seq: bigint('seq', { mode: 'number', unsigned: true }).autoincrement().primaryKey(),
  id: rowId().notNull(),
  ...tenantColumns(),
});

/** When an archivable row was created, last changed and archived (null while it is not). */
export const lifecycleColumns = () => ({
  createdAt: instant('created_at').notNull(),
  updatedAt: instant('updated_at').notNull(),
  archivedAt: instant('archived_at'),
});

/** The columns every new tenant-owned, archivable row starts with. */
export interface NewRowColumns {
  id: string;
  organizationId: string;
  workspaceId: string;
  createdAt: Date;
  updatedAt: Date;
  archivedAt: null;
}

export const newRowColumns = (id: string, tenant: TenantIds, now: Date): NewRowColumns => ({
  id,
  organizationId: tenant.organization_id,
  workspaceId: tenant.workspace_id,
  createdAt: now,
  updatedAt: now,
  archivedAt: null,
});
