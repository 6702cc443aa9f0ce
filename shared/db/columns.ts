import { datetime, varchar } from 'drizzle-orm/mysql-core';
import type { Tenant } from '../schema/tenant';

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

export const newRowColumns = (id: string, tenant: Pick<Tenant, 'organization_id' | 'workspace_id'>, now: Date): NewRowColumns => ({
  id,
  organizationId: tenant.organization_id,
  workspaceId: tenant.workspace_id,
  createdAt: now,
  updatedAt: now,
  archivedAt: null,
});
