import type { Handler } from '@shared/bus/bus-server';
import { recordEvent } from '@shared/bus/outbox';
import type { memoryStoreSubjects } from '@shared/bus/subjects/catalog';
import { notFound } from '@shared/errors/api-error';
import { memoryStoreEvents } from '@shared/schema/memory-store';
import { requireTenant, type CatalogDeps } from '../catalog-deps';
import { findMemoryStore, presentMemoryStore, updateMemoryStoreRow } from '../db/memory-stores';
import { outbox } from '../db/schema';

type S = typeof memoryStoreSubjects.archive;
/** Idempotent: archiving an archived store changes nothing and announces nothing. */
export const archiveMemoryStore =
  (deps: CatalogDeps): Handler<S> =>
  async ({ memory_store_id: id }, ctx) => {
    const tenant = requireTenant(ctx);
    const { row, changed } = await deps.db.transaction(async (tx) => {
      const current = await findMemoryStore(tx, tenant, id, { lock: true });
      if (!current) throw notFound(`memory store ${id} not found`);
      if (current.archivedAt) return { row: current, changed: false };
      const now = deps.clock.now();
      await updateMemoryStoreRow(tx, id, { archivedAt: now, updatedAt: now });
      await recordEvent(tx, outbox, memoryStoreEvents.archived, tenant, { memory_store_id: id }, now);
      return { row: { ...current, archivedAt: now, updatedAt: now }, changed: true };
    });
    if (changed) deps.eventsRecorded();
    return presentMemoryStore(row);
  };
