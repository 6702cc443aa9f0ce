import type { Handler } from '@shared/bus/bus-server';
import type { environmentSubjects } from '@shared/bus/subjects/catalog';
import { requireTenant, type CatalogDeps } from '../catalog-deps';
import { listEnvironments as listEnvironmentRows } from '../db/environments';

type S = typeof environmentSubjects.list;
export const listEnvironments =
  (deps: CatalogDeps): Handler<S> =>
  async (request, ctx) =>
    listEnvironmentRows(deps.db, requireTenant(ctx), request);
