import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { environmentSubjects } from '@shared/bus/subjects/catalog';
import { listEnvironmentPage } from '../db/environments';
import { presentEnvironment } from '../domain/present';
import type { CatalogDeps } from '../deps';

type S = typeof environmentSubjects.list;
export const listEnvironments =
  (deps: CatalogDeps): Handler<S> =>
  async (request, ctx) =>
    listEnvironmentPage(deps.db, tenantOf(ctx), request, presentEnvironment);
