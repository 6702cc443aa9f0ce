import type { PageRequest } from '@shared/db/keyset-page';
import { eq } from 'drizzle-orm';
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

export async function insertEnvironment(db: Executor, row: EnvironmentRow): Promise<void> {
  await db.insert(environments).values(row);
}

export async function updateEnvironment(
  tx: Executor,
  id: string,
  changes: Partial<Pick<EnvironmentRow, 'name' | 'description' | 'config' | 'metadata' | 'updatedAt'>>,
): Promise<void> {
  await tx.update(environments).set(changes).where(eq(environments.id, id));
}

/** Deletion is final: the row goes, and the id resolves as not found from then on. */
export async function deleteEnvironment(tx: Executor, id: string): Promise<void> {
  await tx.delete(environments).where(eq(environments.id, id));
}

export const listEnvironmentPage = <T>(
  db: Executor,
  tenant: Tenant,
  request: PageRequest<EnvironmentListFilters>,
  present: (row: EnvironmentRow) => T,
) => readNewestFirstPage(db, environments, [ownedBy(environments, tenant), ...archivableListConditions(environments, request.filters)], request, present);
