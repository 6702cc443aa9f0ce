import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { memoryStoreSubjects } from '@shared/bus/subjects/catalog';
import { findMemoryStore } from '../db/memory-stores';
import { memoryStoreNotFound } from '../domain/not-found';
import { presentMemoryStore } from '../domain/present';
import type { CatalogDeps } from '../service';

type S = typeof memoryStoreSubjects.get;
export const getMemoryStore =
  (deps: CatalogDeps): Handler<S> =>
  async ({ memory_store_id: id }, ctx) => {
    const row = await findMemoryStore(deps.db, tenantOf(ctx), id);
    if (!row) throw memoryStoreNotFound(id);
    return presentMemoryStore(row);
  };
