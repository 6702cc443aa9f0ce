import type { Handler } from '@shared/bus/bus-server';
import { recordEvent } from '@shared/bus/outbox';
import type { memoryStoreSubjects } from '@shared/bus/subjects/catalog';
import { notFound } from '@shared/errors/api-error';
import { memoryStoreEvents } from '@shared/schema/memory-store';
import { requireTenant, type CatalogDeps } from '../catalog-deps';
import { deleteMemoryStoreRow, findMemoryStore } from '../db/memory-stores';
import { outbox } from '../db/schema';

type S = typeof memoryStoreSubjects.delete;
export const deleteMemoryStore =
  (deps: CatalogDeps): Handler<S> =>
  async ({ memory_store_id: id }, ctx) => {
    const tenant = requireTenant(ctx);
    await deps.db.transaction(async (tx) => {
      const current = await findMemoryStore(tx, tenant, id, { lock: true });
      if (!current) throw notFound(`memory store ${id} not found`);
      await deleteMemoryStoreRow(tx, id);
      await recordEvent(tx, outbox, memoryStoreEvents.deleted, tenant, { memory_store_id: id }, deps.clock.now());
    });
    deps.eventsRecorded();
    return { type: 'memory_store_deleted' as const, id };
  };
