import type { PageRequest } from '@shared/db/keyset-page';
import { eq } from 'drizzle-orm';
import type { Executor, ReadOptions } from '@shared/db/executor';
import { findOwnedRow } from '@shared/db/find-owned-row';
import { readNewestFirstPage } from '@shared/db/newest-first-page';
import { ownedBy } from '@shared/db/owned-by';
import type { MemoryStoreListFilters } from '@shared/schema/memory-store';
import type { Tenant } from '@shared/schema/tenant';
import { archivableListConditions } from '@shared/db/list-filters';
import { deleteStoreMemories } from './memories';
import { memoryStores, type MemoryStoreRow } from './schema';

export const findMemoryStore = (db: Executor, tenant: Tenant, id: string, options?: ReadOptions) => findOwnedRow(db, memoryStores, tenant, id, options);

export async function insertMemoryStore(db: Executor, row: MemoryStoreRow): Promise<void> {
  await db.insert(memoryStores).values(row);
}

export async function updateMemoryStore(
  tx: Executor,
  id: string,
  changes: Partial<Pick<MemoryStoreRow, 'name' | 'description' | 'metadata' | 'updatedAt'>>,
): Promise<void> {
  await tx.update(memoryStores).set(changes).where(eq(memoryStores.id, id));
}

/** The store with its memories and all their versions (the SDK: versions go with their store). */
export async function deleteMemoryStore(tx: Executor, id: string): Promise<void> {
  await deleteStoreMemories(tx, id);
  await tx.delete(memoryStores).where(eq(memoryStores.id, id));
}

export const listMemoryStorePage = <T>(db: Executor, tenant: Tenant, request: PageRequest<MemoryStoreListFilters>, present: (row: MemoryStoreRow) => T) =>
  readNewestFirstPage(db, memoryStores, [ownedBy(memoryStores, tenant), ...archivableListConditions(memoryStores, request.filters)], request, present);
