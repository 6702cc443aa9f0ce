import { agentSubjects } from '@shared/bus/subjects/catalog';
import { AgentCreateBody, AgentUpdateBody } from '@shared/schema/agent';
import { servePage } from '../../routing/pagination';
import { resourceModule } from '../../routing/resource-module';
import { route } from '../../routing/route';
import type { GatewayDeps } from '../../deps';
import { agentBody, AgentGetQuery, agentListRoute, agentVersionListRoute } from './model';

/** /v1/agents: versioned agent definitions (and each agent's versions), served by the catalog service. */
export const agentsModule = (deps: GatewayDeps) =>
  resourceModule('agents', deps, [
    route.post('/v1/agents', { body: agentBody(AgentCreateBody), reply: agentSubjects.create.reply }, ({ call, body }) =>
      deps.bus.call(agentSubjects.create, call, body),
    ),
    route.list('/v1/agents', servePage(agentListRoute, deps)),
    route.get('/v1/agents/:agent_id', { query: AgentGetQuery, reply: agentSubjects.get.reply }, ({ call, params, query }) =>
      deps.bus.call(agentSubjects.get, call, { agent_id: params.agent_id, version: query.version }),
    ),
    // 409: the body's `version` is not the agent's latest.
    route.post('/v1/agents/:agent_id', { body: agentBody(AgentUpdateBody), reply: agentSubjects.update.reply, errors: [409] }, ({ call, params, body }) =>
      deps.bus.call(agentSubjects.update, call, { agent_id: params.agent_id, update: body }),
    ),
    route.post('/v1/agents/:agent_id/archive', { reply: agentSubjects.archive.reply }, ({ call, params }) =>
      deps.bus.call(agentSubjects.archive, call, params),
    ),
    route.list('/v1/agents/:agent_id/versions', servePage(agentVersionListRoute, deps)),
  ]);
