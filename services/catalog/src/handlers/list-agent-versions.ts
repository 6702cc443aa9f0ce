import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { agentSubjects } from '@shared/bus/subjects/catalog';
import { findAgentRow, listAgentVersionPage } from '../db/agents';
import { agentNotFound } from '../domain/not-found';
import { presentAgent } from '../domain/present';
import type { CatalogDeps } from '../deps';

type S = typeof agentSubjects.listVersions;
/** Every version of one of the tenant's agents (archived ones too), newest first; another tenant's agent is 404. */
export const listAgentVersions =
  (deps: CatalogDeps): Handler<S> =>
  async (request, ctx) => {
    const id = request.filters.agent_id;
    const agent = await findAgentRow(deps.db, tenantOf(ctx), id);
    if (!agent) throw agentNotFound(id);
    return listAgentVersionPage(deps.db, agent, request, (found) => presentAgent(found.agent, found.version));
  };
