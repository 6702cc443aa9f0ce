import type { Tenant } from '@shared/schema/tenant';

/** The tenant columns every owned row of this service carries. */
export type OwnedRow = { organizationId: string; workspaceId: string };

/** A row's tenant as events and batcher lanes name it. */
export const tenantOfRow = (row: OwnedRow): Pick<Tenant, 'organization_id' | 'workspace_id'> => ({
  organization_id: row.organizationId,
  workspace_id: row.workspaceId,
});

/**
 * The row if it is the tenant's, else undefined: another tenant's row is no row, as
 * findOwnedRow reads it (for rows read by id alone, many tenants' in one statement).
 */
export const ownRow = <R extends OwnedRow>(row: R | undefined, tenant: Pick<Tenant, 'organization_id' | 'workspace_id'>): R | undefined =>
  row && row.organizationId === tenant.organization_id && row.workspaceId === tenant.workspace_id ? row : undefined;
