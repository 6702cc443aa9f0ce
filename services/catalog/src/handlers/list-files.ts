import type { Handler } from '../../../../shared/bus/bus-server';
import type { catalogSubjects } from '../../../../shared/bus/subjects/catalog';
import { requireTenant, type CatalogDeps } from '../catalog-deps';
import { listFiles as listFileRows } from '../db/files';

type S = typeof catalogSubjects.listFiles;
export const listFiles =
  (deps: CatalogDeps): Handler<S['request'], S['reply']> =>
  async ({ limit, after }, ctx) =>
    listFileRows(deps.db, requireTenant(ctx), { limit, after });
