import type { CallContext } from '@shared/bus/call-context';
import type { Database } from '@shared/db/connect';
import { ApiError } from '@shared/errors/api-error';
import type { Clock } from '@shared/time/clock';
import type { TenantScope } from './db/scope';
import type { ModelCatalog } from './domain/model-catalog';

/** What the catalog's handlers are built from; tests and start-up build it the same way. */
export interface CatalogDeps {
  db: Database;
  clock: Clock;
  models: ModelCatalog;
  /** Called after a commit that recorded outbox events, so they leave now rather than next poll. */
  eventsRecorded: () => void;
  fileMaxBytes: number;
}

/** Catalog resources always belong to a tenant; a call without one is a caller bug, never a wildcard. */
export function requireTenant(ctx: CallContext): TenantScope {
  if (!ctx.tenant) throw new ApiError('permission_error', 'a tenant is required for catalog resources');
  return { organization_id: ctx.tenant.organization_id, workspace_id: ctx.tenant.workspace_id };
}
