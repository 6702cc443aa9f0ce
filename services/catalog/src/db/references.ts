import { and, inArray } from 'drizzle-orm';
import type { Executor } from '@shared/db/executor';
import { ownedBy } from '@shared/db/owned-by';
import type { Tenant } from '@shared/schema/tenant';
import { files, memoryStores } from './schema';

/** Which of `ids` exist in the tenant, with their archive time and what a session snapshots: one IN query, however many ids. */
export async function findMemoryStoreStates(db: Executor, tenant: Tenant, ids: string[]) {
  type Found = { archivedAt: Date | null; name: string; description: string };
  if (ids.length === 0) return new Map<string, Found>();
  const rows = await db
    .select({ id: memoryStores.id, archivedAt: memoryStores.archivedAt, name: memoryStores.name, description: memoryStores.description })
    .from(memoryStores)
    .where(and(ownedBy(memoryStores, tenant), inArray(memoryStores.id, [...new Set(ids)])));
  return new Map<string, Found>(rows.map(({ id, ...found }) => [id, found]));
}

/** Which of `ids` exist in the tenant (files cannot be archived). */
export async function findExistingFileIds(db: Executor, tenant: Tenant, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: files.id })
    .from(files)
    .where(and(ownedBy(files, tenant), inArray(files.id, [...new Set(ids)])));
  return new Set(rows.map((r) => r.id));
}
