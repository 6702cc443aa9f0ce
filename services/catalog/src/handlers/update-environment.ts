import type { Handler } from '@shared/bus/bus-server';
import type { environmentSubjects } from '@shared/bus/subjects/catalog';
import { applyEnvironmentUpdate } from '../domain/environment';
import type { CatalogDeps } from '../deps';
import { environmentResource, updateOwned } from './owned-resource';

type S = typeof environmentSubjects.update;
/** Applied under the row lock, so concurrent updates of one environment do not lose each other's changes. */
export const updateEnvironment =
  (deps: CatalogDeps): Handler<S> =>
  ({ environment_id: id, update: patch }, ctx) =>
    updateOwned(deps, environmentResource, ctx, id, (current, now) => applyEnvironmentUpdate(current, patch, now));
