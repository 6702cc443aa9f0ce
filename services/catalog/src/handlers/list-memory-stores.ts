import type { Handler } from '@shared/bus/bus-server';
import type { memoryStoreSubjects } from '@shared/bus/subjects/catalog';
import { requireTenant, type CatalogDeps } from '../catalog-deps';
import { listMemoryStores as listMemoryStoreRows } from '../db/memory-stores';

type S = typeof memoryStoreSubjects.list;
export const listMemoryStores =
  (deps: CatalogDeps): Handler<S> =>
  async (request, ctx) =>
    listMemoryStoreRows(deps.db, requireTenant(ctx), request);
