import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import { found } from '@shared/errors/api-error';
import type { environmentSubjects } from '@shared/bus/subjects/catalog';
import { findEnvironment } from '../db/environments';
import { environmentNotFound } from '../domain/not-found';
import { presentEnvironment } from '../domain/present';
import type { CatalogDeps } from '../deps';

type S = typeof environmentSubjects.get;
export const getEnvironment =
  (deps: CatalogDeps): Handler<S> =>
  async ({ environment_id: id }, ctx) => {
    return presentEnvironment(found(await findEnvironment(deps.db, tenantOf(ctx), id), () => environmentNotFound(id)));
  };
