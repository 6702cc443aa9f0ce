import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { memorySubjects } from '@shared/bus/subjects/memories';
import { found } from '@shared/errors/api-error';
import { newId } from '@shared/ids/ids';
import { deleteMemoryRow, findMemory } from '../db/memories';
import { inMemoryStoreWrite } from '../db/memory-writes';
import { newVersionRow, preconditionFailed, writerOf } from '../domain/memory';
import { memoryNotFound } from '../domain/not-found';
import type { CatalogDeps } from '../deps';

type S = typeof memorySubjects.delete;
/** The memory goes, its versions stay, with a `deleted` one added; `expected_content_sha256` must hold. */
export const deleteMemory =
  (deps: CatalogDeps): Handler<S> =>
  async ({ memory_store_id: storeId, memory_id: id, expected_content_sha256: expected, actor }, ctx) => {
    const tenant = tenantOf(ctx);
    await inMemoryStoreWrite(deps, tenant, storeId, async (tx, _store, now) => {
      const current = found(await findMemory(tx, tenant, storeId, id, { lock: true }), () => memoryNotFound(id));
      if (expected !== undefined && expected !== current.contentSha256) throw preconditionFailed(id, 'expected_content_sha256');
      await deleteMemoryRow(tx, id, newVersionRow(current, newId('memoryVersion'), 'deleted', writerOf(actor, tenant), now));
    });
    return { type: 'memory_deleted', id };
  };
