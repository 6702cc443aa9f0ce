import { and, asc, count, eq, gt, gte, inArray, lt, ne, or, type SQL } from 'drizzle-orm';
import type { Executor, ReadOptions } from '@shared/db/executor';
import { findOwnedRow } from '@shared/db/find-owned-row';
import { ownedBy } from '@shared/db/owned-by';
import type { MemoryPagePosition } from '@shared/schema/memory';
import type { Tenant } from '@shared/schema/tenant';
import { ancestorPaths, subtreeEnd } from '../domain/memory-path';
import { memories, memoryVersions, type MemoryRow, type MemoryVersionRow } from './schema';

/** A store's memories: the tenant's, in that store. */
const inStore = (tenant: Tenant, storeId: string) => and(ownedBy(memories, tenant), eq(memories.memoryStoreId, storeId));

export const findMemory = (db: Executor, tenant: Tenant, storeId: string, id: string, options: ReadOptions = {}) =>
  findOwnedRow(db, memories, tenant, id, options, eq(memories.memoryStoreId, storeId));

export async function countStoreMemories(db: Executor, tenant: Tenant, storeId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(memories).where(inStore(tenant, storeId));
  return row?.n ?? 0;
}

/** Paths at or below the directory `prefix` (ending with `/`): a byte range on the store's path index. */
const below = (prefix: string): SQL => and(gte(memories.path, prefix), lt(memories.path, subtreeEnd(prefix)))!;

/**
 * A memory of the store whose path `path` would collide with: the same path, an ancestor of it
 * or one below it (`excludeId`: the memory being renamed). Read in the caller's transaction,
 * which holds the store's lock, so no other write can make one meanwhile.
 */
export async function findPathConflict(db: Executor, tenant: Tenant, storeId: string, path: string, excludeId?: string) {
  const overlapping = or(inArray(memories.path, [path, ...ancestorPaths(path)]), below(`${path}/`));
  const [row] = await db
    .select({ id: memories.id, path: memories.path })
    .from(memories)
    .where(and(inStore(tenant, storeId), overlapping, excludeId === undefined ? undefined : ne(memories.id, excludeId)))
    .orderBy(asc(memories.path))
    .limit(1);
  return row;
}

/** A memory and the version that records it, in the caller's transaction. */
export async function insertMemory(tx: Executor, row: MemoryRow, version: MemoryVersionRow): Promise<void> {
  await tx.insert(memories).values(row);
  await tx.insert(memoryVersions).values(version);
}

export async function updateMemoryRow(tx: Executor, row: MemoryRow, version: MemoryVersionRow): Promise<void> {
  const { id, organizationId, workspaceId, memoryStoreId, createdAt, ...changes } = row;
  await tx.update(memories).set(changes).where(eq(memories.id, id));
  await tx.insert(memoryVersions).values(version);
}

export async function deleteMemoryRow(tx: Executor, id: string, version: MemoryVersionRow): Promise<void> {
  await tx.delete(memories).where(eq(memories.id, id));
  await tx.insert(memoryVersions).values(version);
}

/** Everything a store holds, when the store itself goes. */
export async function deleteStoreMemories(tx: Executor, storeId: string): Promise<void> {
  await tx.delete(memories).where(eq(memories.memoryStoreId, storeId));
  await tx.delete(memoryVersions).where(eq(memoryVersions.memoryStoreId, storeId));
}

/**
 * Up to `limit` memories below `prefix` in path order, from where a page stopped: after a
 * memory's path, or after everything below a directory it ended on.
 */
export async function readMemoriesInPathOrder(
  db: Executor,
  tenant: Tenant,
  storeId: string,
  prefix: string,
  from: MemoryPagePosition | null,
  limit: number,
): Promise<MemoryRow[]> {
  const resume = from === null ? undefined : from.subtree ? gte(memories.path, subtreeEnd(from.path)) : gt(memories.path, from.path);
  return db
    .select()
    .from(memories)
    .where(and(inStore(tenant, storeId), prefix === '/' ? undefined : below(prefix), resume))
    .orderBy(asc(memories.path))
    .limit(limit);
}
