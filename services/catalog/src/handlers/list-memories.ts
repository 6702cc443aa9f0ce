import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { memorySubjects } from '@shared/bus/subjects/memories';
import { found } from '@shared/errors/api-error';
import type { MemoryListItem, MemoryPagePosition } from '@shared/schema/memory';
import { readMemoriesInPathOrder } from '../db/memories';
import { findMemoryStore } from '../db/memory-stores';
import { checkPathPrefix, listedAs } from '../domain/memory-path';
import { memoryStoreNotFound } from '../domain/not-found';
import { presentMemory } from '../domain/present';
import type { CatalogDeps } from '../deps';

/** Rows read per query; a page reads again after a directory marker, from the end of its subtree. */
const CHUNK = 50;

type S = typeof memorySubjects.list;
/**
 * A page of a store's memories below `path_prefix`, in path order; with a `depth`, the memories
 * deeper than it are shown as one `memory_prefix` per directory at that depth, each counting
 * toward the limit like a memory. A page is at most 20 full memories of 100 kB (2 MB), so it
 * needs no byte budget.
 */
export const listMemories =
  (deps: CatalogDeps): Handler<S> =>
  async ({ filters, limit, after }, ctx) => {
    const tenant = tenantOf(ctx);
    const { memory_store_id: storeId, path_prefix: prefix, depth, view } = filters;
    checkPathPrefix(prefix);
    found(await findMemoryStore(deps.db, tenant, storeId), () => memoryStoreNotFound(storeId));
    const present = presentMemory(view);
    const data: MemoryListItem[] = [];
    let position = after;
    for (;;) {
      const rows = await readMemoriesInPathOrder(deps.db, tenant, storeId, prefix, position, CHUNK);
      for (const row of rows) {
        // A row below the directory just listed is covered by its marker.
        if (position?.subtree && row.path.startsWith(position.path)) continue;
        if (data.length === limit) return { data, next: position };
        const shown = listedAs(row.path, prefix, depth);
        data.push(shown === 'memory' ? present(row) : { type: 'memory_prefix', path: shown.prefix });
        position = shown === 'memory' ? { path: row.path, subtree: false } : { path: shown.prefix, subtree: true };
      }
      if (rows.length < CHUNK) return { data, next: null };
    }
  };
