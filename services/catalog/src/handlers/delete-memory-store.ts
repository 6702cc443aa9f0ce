import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { memoryStoreSubjects } from '@shared/bus/subjects/catalog';
import { memoryStoreEvents } from '@shared/schema/memory-store';
import { deleteOwnedRow } from '../db/archive-and-delete';
import { deleteMemoryStore as deleteMemoryStoreRows } from '../db/memory-stores';
import { memoryStores } from '../db/schema';
import { memoryStoreNotFound } from '../domain/not-found';
import type { CatalogDeps } from '../deps';

type S = typeof memoryStoreSubjects.delete;
export const deleteMemoryStore =
  (deps: CatalogDeps): Handler<S> =>
  async ({ memory_store_id: id }, ctx) => {
    const announce = { event: memoryStoreEvents.deleted, data: { memory_store_id: id } };
    const deleted = await deleteOwnedRow(deps, memoryStores, tenantOf(ctx), id, deleteMemoryStoreRows, announce);
    if (!deleted) throw memoryStoreNotFound(id);
    return { type: 'memory_store_deleted' as const, id };
  };
