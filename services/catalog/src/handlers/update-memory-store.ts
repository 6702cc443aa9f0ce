import type { Handler } from '@shared/bus/bus-server';
import type { memoryStoreSubjects } from '@shared/bus/subjects/catalog';
import { applyMemoryStoreUpdate } from '../domain/memory-store';
import type { CatalogDeps } from '../deps';
import { memoryStoreResource, updateOwned } from './owned-resource';

type S = typeof memoryStoreSubjects.update;
/** Applied under the row lock, so concurrent updates of one store do not lose each other's changes. */
export const updateMemoryStore =
  (deps: CatalogDeps): Handler<S> =>
  ({ memory_store_id: id, update: patch }, ctx) =>
    updateOwned(deps, memoryStoreResource, ctx, id, (current, now) => applyMemoryStoreUpdate(current, patch, now));
