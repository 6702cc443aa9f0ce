import { and, eq } from 'drizzle-orm';
import type { PagePosition } from '@shared/schema/common';
import type { MemoryStore, MemoryStoreListFilters } from '@shared/schema/memory-store';
import { keysetAfter, newestFirst, readPage } from '@shared/db/keyset-page';
import { listFilters } from './list-filters';
import { memoryStores } from './schema';
import { ownedBy, type Executor, type TenantScope } from './scope';

export type MemoryStoreRow = typeof memoryStores.$inferSelect;

export function presentMemoryStore(row: MemoryStoreRow): MemoryStore {
  return {
    type: 'memory_store',
    id: row.id,
    name: row.name,
    description: row.description,
    metadata: row.metadata,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    archived_at: row.archivedAt?.toISOString() ?? null,
  };
}

export async function insertMemoryStore(
  tx: Executor,
  input: { id: string; tenant: TenantScope; name: string; description: string; metadata: Record<string, string>; now: Date },
): Promise<MemoryStoreRow> {
  const row: MemoryStoreRow = {
    id: input.id,
    organizationId: input.tenant.organization_id,
    workspaceId: input.tenant.workspace_id,
    name: input.name,
    description: input.description,
    metadata: input.metadata,
    createdAt: input.now,
    updatedAt: input.now,
    archivedAt: null,
  };
  await tx.insert(memoryStores).values(row);
  return row;
}

/** With `lock`, the row stays locked until the transaction ends. */
export async function findMemoryStore(
  db: Executor,
  tenant: TenantScope,
  id: string,
  options: { lock?: boolean } = {},
): Promise<MemoryStoreRow | undefined> {
  const query = db
    .select()
    .from(memoryStores)
    .where(and(eq(memoryStores.id, id), ownedBy(memoryStores, tenant)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

export async function updateMemoryStoreRow(
  tx: Executor,
  id: string,
  changes: Partial<Pick<MemoryStoreRow, 'name' | 'description' | 'metadata' | 'updatedAt' | 'archivedAt'>>,
): Promise<void> {
  await tx.update(memoryStores).set(changes).where(eq(memoryStores.id, id));
}

export async function deleteMemoryStoreRow(tx: Executor, id: string): Promise<void> {
  await tx.delete(memoryStores).where(eq(memoryStores.id, id));
}

export async function listMemoryStores(
  db: Executor,
  tenant: TenantScope,
  request: { filters: MemoryStoreListFilters; limit: number; after: PagePosition | null },
) {
  const readChunk = (from: PagePosition | null, count: number) =>
    db
      .select()
      .from(memoryStores)
      .where(and(ownedBy(memoryStores, tenant), ...listFilters(memoryStores, request.filters), keysetAfter(memoryStores, from)))
      .orderBy(...newestFirst(memoryStores))
      .limit(count);
  return readPage(readChunk, request.after, request.limit, presentMemoryStore);
}
