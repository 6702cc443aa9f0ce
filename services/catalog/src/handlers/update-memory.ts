import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { memorySubjects } from '@shared/bus/subjects/memories';
import { found } from '@shared/errors/api-error';
import { newId } from '@shared/ids/ids';
import { findMemory, findPathConflict, updateMemoryRow } from '../db/memories';
import { inMemoryStoreWrite } from '../db/memory-writes';
import type { MemoryRow } from '../db/schema';
import { checkContent, contentDigest, newVersionRow, pathConflict, planUpdate, writerOf } from '../domain/memory';
import { checkMemoryPath } from '../domain/memory-path';
import { memoryNotFound } from '../domain/not-found';
import { presentMemory } from '../domain/present';
import type { CatalogDeps } from '../deps';

type S = typeof memorySubjects.update;
/**
 * New content, a new path (a rename: the id stays), or both, recorded as a `modified` version;
 * an update that changes nothing writes nothing. The precondition is checked under the store's
 * lock (db/memory-writes.ts), so it cannot pass for two racing updates.
 */
export const updateMemory =
  (deps: CatalogDeps): Handler<S> =>
  async ({ memory_store_id: storeId, memory_id: id, update, view, actor }, ctx) => {
    const tenant = tenantOf(ctx);
    if (update.path != null) checkMemoryPath(update.path);
    if (update.content != null) checkContent(update.content);
    const row = await inMemoryStoreWrite(deps, tenant, storeId, async (tx, _store, now) => {
      const current = found(await findMemory(tx, tenant, storeId, id, { lock: true }), () => memoryNotFound(id));
      const plan = planUpdate(current, update);
      if (!plan.change) return current;
      if (plan.path !== current.path) {
        const blocking = await findPathConflict(tx, tenant, storeId, plan.path, id);
        if (blocking) throw pathConflict(plan.path, blocking);
      }
      const next: MemoryRow = {
        ...current,
        path: plan.path,
        content: plan.content,
        ...contentDigest(plan.content),
        memoryVersionId: newId('memoryVersion'),
        updatedAt: now,
      };
      await updateMemoryRow(tx, next, newVersionRow(next, next.memoryVersionId, 'modified', writerOf(actor, tenant), now));
      return next;
    });
    return presentMemory(view)(row);
  };
