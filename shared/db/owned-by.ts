import { and, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { MySqlColumn } from 'drizzle-orm/mysql-core';
import type { TenantIds } from '../schema/tenant';

/** Every tenant-owned table has these two columns. */
export interface TenantColumns {
  organizationId: MySqlColumn;
  workspaceId: MySqlColumn;
}

/**
 * The predicate every read of a tenant's rows carries: another tenant's rows are
 * indistinguishable from missing ones.
 */
export const ownedBy = (
  table: TenantColumns,
  // Placeholders build a prepared query (see deployments' list), values an ordinary one.
  tenant: TenantIds | { organization_id: Placeholder; workspace_id: Placeholder },
): SQL =>
  and(eq(table.organizationId, tenant.organization_id), eq(table.workspaceId, tenant.workspace_id))!;

/** The tenant of a prepared statement (shared/db/prepared.ts): its values are the call's `organization_id` and `workspace_id`. */
export const tenantPlaceholders = { organization_id: sql.placeholder('organization_id'), workspace_id: sql.placeholder('workspace_id') };
