import { and, eq, type SQL } from 'drizzle-orm';
import type { MySqlColumn } from 'drizzle-orm/mysql-core';
import type { Database } from '@shared/db/connect';

/** Whose resources a call may see: another tenant's rows are indistinguishable from missing ones. */
export interface TenantScope {
  organization_id: string;
  workspace_id: string;
}

/** The database or an open transaction. */
export type Executor = Database | Parameters<Parameters<Database['transaction']>[0]>[0];

export const ownedBy = (table: { organizationId: MySqlColumn; workspaceId: MySqlColumn }, tenant: TenantScope): SQL =>
  and(eq(table.organizationId, tenant.organization_id), eq(table.workspaceId, tenant.workspace_id))!;
