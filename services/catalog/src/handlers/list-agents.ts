import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { agentSubjects } from '@shared/bus/subjects/catalog';
import { listAgentPage } from '../db/agents';
import { presentAgent } from '../domain/present';
import type { CatalogDeps } from '../deps';

type S = typeof agentSubjects.list;
export const listAgents =
  (deps: CatalogDeps): Handler<S> =>
  async (request, ctx) =>
    listAgentPage(deps.db, tenantOf(ctx), request, (found) => presentAgent(found.agent, found.version));
