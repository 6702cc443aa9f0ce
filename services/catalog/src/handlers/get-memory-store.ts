import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { memoryStoreSubjects } from '@shared/bus/subjects/catalog';
import { notFound } from '@shared/errors/api-error';
import { findMemoryStore } from '../db/memory-stores';
import { presentMemoryStore } from '../domain/present';
import type { CatalogDeps } from '../service';

type S = typeof memoryStoreSubjects.get;
export const getMemoryStore =
  (deps: CatalogDeps): Handler<S> =>
  async ({ memory_store_id: id }, ctx) => {
    const row = await findMemoryStore(deps.db, tenantOf(ctx), id);
    if (!row) throw notFound(`memory store ${id} not found`);
    return presentMemoryStore(row);
  };
