import type { Handler } from '@shared/bus/bus-server';
import type { environmentSubjects } from '@shared/bus/subjects/catalog';
import type { CatalogDeps } from '../deps';
import { deleteOwned, environmentResource } from './owned-resource';

type S = typeof environmentSubjects.delete;
export const deleteEnvironment =
  (deps: CatalogDeps): Handler<S> =>
  ({ environment_id: id }, ctx) =>
    deleteOwned(deps, environmentResource, ctx, id);
