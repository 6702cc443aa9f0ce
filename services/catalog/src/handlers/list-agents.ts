import type { Handler } from '@shared/bus/bus-server';
import type { agentSubjects } from '@shared/bus/subjects/catalog';
import { requireTenant, type CatalogDeps } from '../catalog-deps';
import { listAgents as listAgentRows } from '../db/agents';

type S = typeof agentSubjects.list;
export const listAgents =
  (deps: CatalogDeps): Handler<S> =>
  async (request, ctx) =>
    listAgentRows(deps.db, requireTenant(ctx), request);
