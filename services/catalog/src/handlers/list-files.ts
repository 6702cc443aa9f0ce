import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { fileSubjects } from '@shared/bus/subjects/catalog';
import { listFilePage } from '../db/files';
import { presentFile } from '../domain/present';
import type { CatalogDeps } from '../deps';

type S = typeof fileSubjects.list;
export const listFiles =
  (deps: CatalogDeps): Handler<S> =>
  async (request, ctx) =>
    listFilePage(deps.db, tenantOf(ctx), request, presentFile);
