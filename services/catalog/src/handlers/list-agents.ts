import type { Handler } from '../../../../shared/bus/bus-server';
import type { catalogSubjects } from '../../../../shared/bus/subjects/catalog';
import { requireTenant, type CatalogDeps } from '../catalog-deps';
import { listAgents as listAgentRows } from '../db/agents';

type S = typeof catalogSubjects.listAgents;
export const listAgents =
  (deps: CatalogDeps): Handler<S['request'], S['reply']> =>
  async (request, ctx) =>
    listAgentRows(deps.db, requireTenant(ctx), request);
