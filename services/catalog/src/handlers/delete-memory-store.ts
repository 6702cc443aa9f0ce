import type { Handler } from '@shared/bus/bus-server';
import type { memoryStoreSubjects } from '@shared/bus/subjects/catalog';
import type { CatalogDeps } from '../deps';
import { deleteOwned, memoryStoreResource } from './owned-resource';

type S = typeof memoryStoreSubjects.delete;
export const deleteMemoryStore =
  (deps: CatalogDeps): Handler<S> =>
  ({ memory_store_id: id }, ctx) =>
    deleteOwned(deps, memoryStoreResource, ctx, id);
