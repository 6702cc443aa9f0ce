import { invalidRequest } from '@shared/errors/api-error';
import type { Tenant } from '@shared/schema/tenant';

/** The columns every new tenant-owned, archivable row starts with. */
export interface NewRowColumns {
  id: string;
  organizationId: string;
  workspaceId: string;
  createdAt: Date;
  updatedAt: Date;
  archivedAt: null;
}

export const newRowColumns = (id: string, tenant: Tenant, now: Date): NewRowColumns => ({
  id,
  organizationId: tenant.organization_id,
  workspaceId: tenant.workspace_id,
  createdAt: now,
  updatedAt: now,
  archivedAt: null,
});

/** Archived resources are frozen: an update of one is refused, in the same words for every kind. */
export function refuseArchived(kind: string, resource: { id: string; archivedAt: Date | null }): void {
  if (resource.archivedAt) throw invalidRequest(`${kind} ${resource.id} is archived and cannot be updated`);
}
