import type { Handler } from '@shared/bus/bus-server';
import type { memoryStoreSubjects } from '@shared/bus/subjects/catalog';
import { newMemoryStore } from '../domain/memory-store';
import type { CatalogDeps } from '../deps';
import { createOwned, memoryStoreResource } from './owned-resource';

type S = typeof memoryStoreSubjects.create;
export const createMemoryStore =
  (deps: CatalogDeps): Handler<S> =>
  (body, ctx) =>
    createOwned(deps, memoryStoreResource, ctx, (columns) => newMemoryStore(body, columns));
