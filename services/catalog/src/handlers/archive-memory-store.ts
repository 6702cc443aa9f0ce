import type { Handler } from '@shared/bus/bus-server';
import type { memoryStoreSubjects } from '@shared/bus/subjects/catalog';
import type { CatalogDeps } from '../deps';
import { archiveOwned, memoryStoreResource } from './owned-resource';

type S = typeof memoryStoreSubjects.archive;
/** Idempotent: archiving an archived store changes nothing and announces nothing. */
export const archiveMemoryStore =
  (deps: CatalogDeps): Handler<S> =>
  ({ memory_store_id: id }, ctx) =>
    archiveOwned(deps, memoryStoreResource, ctx, id);
