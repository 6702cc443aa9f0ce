import type { Handler } from '@shared/bus/bus-server';
import type { environmentSubjects } from '@shared/bus/subjects/catalog';
import type { CatalogDeps } from '../deps';
import { archiveOwned, environmentResource } from './owned-resource';

type S = typeof environmentSubjects.archive;
/** Idempotent: archiving an archived environment changes nothing and announces nothing. */
export const archiveEnvironment =
  (deps: CatalogDeps): Handler<S> =>
  ({ environment_id: id }, ctx) =>
    archiveOwned(deps, environmentResource, ctx, id);
