import { found } from '@shared/errors/api-error';
import type { Executor } from '@shared/db/executor';
import type { Tenant } from '@shared/schema/tenant';
import type { StoreDeps } from '@shared/service-host/store-deps';
import { memoryStoreNotFound } from '../domain/not-found';
import { refuseArchived } from '../domain/owned-row';
import { findMemoryStore } from './memory-stores';
import type { MemoryStoreRow } from './schema';

/**
 * The transaction every write to a store's memories runs in (create, update, delete): it holds
 * the store's row lock to the end, so the writes of one store take turns. That is what keeps the
 * rules that span memories true under concurrency: no two memories at colliding paths, at most
 * 2,000 a store, and of two updates made on the same `content_sha256` precondition exactly one
 * applies (the second sees the first's content). An archived store is read-only: 400, as an
 * update of the store itself.
 */
export function inMemoryStoreWrite<T>(
  deps: StoreDeps,
  tenant: Tenant,
  storeId: string,
  write: (tx: Executor, store: MemoryStoreRow, now: Date) => Promise<T>,
): Promise<T> {
  return deps.db.transaction(async (tx) => {
    const store = found(await findMemoryStore(tx, tenant, storeId, { lock: true }), () => memoryStoreNotFound(storeId));
    refuseArchived('memory store', store);
    return write(tx, store, deps.clock.now());
  });
}
