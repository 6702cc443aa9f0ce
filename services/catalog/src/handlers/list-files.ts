import type { Handler } from '@shared/bus/bus-server';
import type { fileSubjects } from '@shared/bus/subjects/catalog';
import { requireTenant, type CatalogDeps } from '../catalog-deps';
import { listFiles as listFileRows } from '../db/files';

type S = typeof fileSubjects.list;
export const listFiles =
  (deps: CatalogDeps): Handler<S> =>
  async ({ limit, after }, ctx) =>
    listFileRows(deps.db, requireTenant(ctx), { limit, after });
