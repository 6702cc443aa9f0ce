import type { Handler } from '@shared/bus/bus-server';
import type { memoryStoreSubjects } from '@shared/bus/subjects/catalog';
import { notFound } from '@shared/errors/api-error';
import { requireTenant, type CatalogDeps } from '../catalog-deps';
import { findMemoryStore, presentMemoryStore } from '../db/memory-stores';

type S = typeof memoryStoreSubjects.get;
export const getMemoryStore =
  (deps: CatalogDeps): Handler<S> =>
  async ({ memory_store_id: id }, ctx) => {
    const row = await findMemoryStore(deps.db, requireTenant(ctx), id);
    if (!row) throw notFound(`memory store ${id} not found`);
    return presentMemoryStore(row);
  };
