import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { memorySubjects } from '@shared/bus/subjects/memories';
import { newId } from '@shared/ids/ids';
import { countStoreMemories, findPathConflict, insertMemory } from '../db/memories';
import { inMemoryStoreWrite } from '../db/memory-writes';
import type { MemoryRow } from '../db/schema';
import { checkContent, contentDigest, newVersionRow, pathConflict, refuseFullStore, writerOf } from '../domain/memory';
import { checkMemoryPath } from '../domain/memory-path';
import { presentMemory } from '../domain/present';
import type { CatalogDeps } from '../deps';

type S = typeof memorySubjects.create;
/** A new memory and its `created` version; the path must not collide with another memory's. */
export const createMemory =
  (deps: CatalogDeps): Handler<S> =>
  async ({ memory_store_id: storeId, memory: body, view, actor }, ctx) => {
    const tenant = tenantOf(ctx);
    const content = body.content ?? '';
    checkMemoryPath(body.path);
    checkContent(content);
    const row = await inMemoryStoreWrite(deps, tenant, storeId, async (tx, store, now) => {
      const blocking = await findPathConflict(tx, tenant, storeId, body.path);
      if (blocking) throw pathConflict(body.path, blocking);
      refuseFullStore(store.id, await countStoreMemories(tx, tenant, storeId));
      const memory: MemoryRow = {
        id: newId('memory'),
        organizationId: tenant.organization_id,
        workspaceId: tenant.workspace_id,
        memoryStoreId: storeId,
        path: body.path,
        content,
        ...contentDigest(content),
        memoryVersionId: newId('memoryVersion'),
        createdAt: now,
        updatedAt: now,
      };
      await insertMemory(tx, memory, newVersionRow(memory, memory.memoryVersionId, 'created', writerOf(actor, tenant), now));
      return memory;
    });
    return presentMemory(view)(row);
  };
