import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import { found } from '@shared/errors/api-error';
import type { memoryStoreSubjects } from '@shared/bus/subjects/catalog';
import { findMemoryStore, updateMemoryStore as updateMemoryStoreRow } from '../db/memory-stores';
import { applyMemoryStoreUpdate } from '../domain/memory-store';
import { memoryStoreNotFound } from '../domain/not-found';
import { presentMemoryStore } from '../domain/present';
import type { CatalogDeps } from '../deps';

type S = typeof memoryStoreSubjects.update;
/** Applied under the row lock, so concurrent updates of one store do not lose each other's changes. */
export const updateMemoryStore =
  (deps: CatalogDeps): Handler<S> =>
  async ({ memory_store_id: id, update: patch }, ctx) => {
    const tenant = tenantOf(ctx);
    const row = await deps.db.transaction(async (tx) => {
      const current = found(await findMemoryStore(tx, tenant, id, { lock: true }), () => memoryStoreNotFound(id));
      const next = applyMemoryStoreUpdate(current, patch, deps.clock.now());
      await updateMemoryStoreRow(tx, id, next);
      return next;
    });
    return presentMemoryStore(row);
  };
