import type { Handler } from '@shared/bus/bus-server';
import type { environmentSubjects } from '@shared/bus/subjects/catalog';
import { newEnvironment } from '../domain/environment';
import type { CatalogDeps } from '../deps';
import { createOwned, environmentResource } from './owned-resource';

type S = typeof environmentSubjects.create;
export const createEnvironment =
  (deps: CatalogDeps): Handler<S> =>
  (body, ctx) =>
    createOwned(deps, environmentResource, ctx, (columns) => newEnvironment(body, columns));
