import { rowWrites } from '@shared/db/row-writes';
import type { TenantPageReader } from '@shared/db/keyset-page';
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

const storeRows = rowWrites<typeof memoryStores, 'name' | 'description' | 'metadata' | 'updatedAt'>(memoryStores);

/** New, changed (name, description, metadata) and deleted memory stores; a store goes with its memories and all their versions (the SDK: versions go with their store). */
export const memoryStoreWrites = {
  ...storeRows,
  remove: async (tx: Executor, id: string): Promise<void> => {
    await deleteStoreMemories(tx, id);
    await storeRows.remove(tx, id);
  },
};

export const listMemoryStorePage: TenantPageReader<MemoryStoreListFilters, MemoryStoreRow> = (db, tenant, request, present) =>
  readNewestFirstPage(db, memoryStores, [ownedBy(memoryStores, tenant), ...archivableListConditions(memoryStores, request.filters)], request, present);
