import { rowWrites } from '@shared/db/row-writes';
import type { TenantPageReader } from '@shared/db/keyset-page';
import type { Executor, ReadOptions } from '@shared/db/executor';
import { findOwnedRow } from '@shared/db/find-owned-row';
import { readNewestFirstPage } from '@shared/db/newest-first-page';
import { ownedBy } from '@shared/db/owned-by';
import type { EnvironmentListFilters } from '@shared/schema/environment';
import type { Tenant } from '@shared/schema/tenant';
import { archivableListConditions } from '@shared/db/list-filters';
import { environments, type EnvironmentRow } from './schema';

export const findEnvironment = (db: Executor, tenant: Tenant, id: string, options?: ReadOptions) =>
  findOwnedRow(db, environments, tenant, id, options);

/** New, changed and deleted environments; deletion is final: the id resolves as not found from then on. */
export const environmentWrites = rowWrites<typeof environments, 'name' | 'description' | 'config' | 'metadata' | 'updatedAt'>(environments);

export const listEnvironmentPage: TenantPageReader<EnvironmentListFilters, EnvironmentRow> = (db, tenant, request, present) => readNewestFirstPage(db, environments, [ownedBy(environments, tenant), ...archivableListConditions(environments, request.filters)], request, present);
