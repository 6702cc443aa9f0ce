import type { Handler } from '@shared/bus/bus-server';
import type { environmentSubjects } from '@shared/bus/subjects/catalog';
import { notFound } from '@shared/errors/api-error';
import { requireTenant, type CatalogDeps } from '../catalog-deps';
import { findEnvironment, presentEnvironment } from '../db/environments';

type S = typeof environmentSubjects.get;
export const getEnvironment =
  (deps: CatalogDeps): Handler<S> =>
  async ({ environment_id: id }, ctx) => {
    const row = await findEnvironment(deps.db, requireTenant(ctx), id);
    if (!row) throw notFound(`environment ${id} not found`);
    return presentEnvironment(row);
  };
