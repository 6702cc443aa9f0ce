import { and, eq, type SQL } from 'drizzle-orm';
import type { Executor, ReadOptions } from '@shared/db/executor';
import type { TenantPageReader } from '@shared/db/keyset-page';
import { createdAtConditions } from '@shared/db/list-filters';
import { readNewestFirstPage } from '@shared/db/newest-first-page';
import { findOwnedRow } from '@shared/db/find-owned-row';
import { ownedBy } from '@shared/db/owned-by';
import type { WriteActor } from '@shared/schema/memory';
import type { MemoryVersionListFilters } from '@shared/schema/memory-version';
import type { Tenant, TenantIds } from '@shared/schema/tenant';
import { actorColumns } from '../domain/memory';
import { memoryVersions, type MemoryVersionRow } from './schema';

const inStore = (tenant: TenantIds, storeId: string) => and(ownedBy(memoryVersions, tenant), eq(memoryVersions.memoryStoreId, storeId));

export const findMemoryVersion = (db: Executor, tenant: Tenant, storeId: string, id: string, options: ReadOptions = {}) =>
  findOwnedRow(db, memoryVersions, tenant, id, options, eq(memoryVersions.memoryStoreId, storeId));

/** Clears what the version recorded (content, path, hash, size) and says when and by whom. */
export async function redactMemoryVersion(tx: Executor, id: string, redactor: WriteActor, now: Date): Promise<void> {
  const by = actorColumns(redactor);
  await tx
    .update(memoryVersions)
    .set({ content: null, path: null, contentSha256: null, contentSizeBytes: null, redactedAt: now, redactedByType: by.type, redactedById: by.id })
    .where(eq(memoryVersions.id, id));
}

/** An author filter: versions written by that kind of actor with that id. */
const writtenBy = (type: string, id: string | undefined): SQL | undefined =>
  id === undefined ? undefined : and(eq(memoryVersions.createdByType, type), eq(memoryVersions.createdById, id));

export const listMemoryVersionPage: TenantPageReader<MemoryVersionListFilters, MemoryVersionRow> = (db, tenant, request, present) => {
  const { filters } = request;
  return readNewestFirstPage(
    db,
    memoryVersions,
    [
      inStore(tenant, filters.memory_store_id),
      filters.memory_id === undefined ? undefined : eq(memoryVersions.memoryId, filters.memory_id),
      filters.operation === undefined ? undefined : eq(memoryVersions.operation, filters.operation),
      writtenBy('api_actor', filters.api_key_id),
      writtenBy('session_actor', filters.session_id),
      writtenBy('service_account_actor', filters.service_account_id),
      ...createdAtConditions(memoryVersions.createdAt, filters),
    ],
    request,
    present,
  );
};
