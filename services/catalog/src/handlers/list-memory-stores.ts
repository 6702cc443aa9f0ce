import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { memoryStoreSubjects } from '@shared/bus/subjects/catalog';
import { listMemoryStorePage } from '../db/memory-stores';
import { presentMemoryStore } from '../domain/present';
import type { CatalogDeps } from '../deps';

type S = typeof memoryStoreSubjects.list;
export const listMemoryStores =
  (deps: CatalogDeps): Handler<S> =>
  async (request, ctx) =>
    listMemoryStorePage(deps.db, tenantOf(ctx), request, presentMemoryStore);
