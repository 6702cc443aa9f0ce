import { Elysia } from 'elysia';
import { agentSubjects } from '@shared/bus/subjects/catalog';
import { AgentCreateBody, AgentUpdateBody } from '@shared/schema/agent';
import { parseQuery } from '../../http/query';
import { emptyBody } from '../../http/raw-body';
import type { GatewayDeps } from '../../routing/gateway-deps';
import { createGuard } from '../../routing/guard';
import { checkPathIds } from '../../routing/path-id';
import { servePage } from '../../routing/pagination';
import { agentBody, AgentGetQuery, agentListRoute } from './model';

/** /v1/agents: versioned agent definitions, served by the catalog service. */
export const agentsModule = (deps: GatewayDeps) =>
  new Elysia({ name: 'module-agents' })
    .use(createGuard(deps))
    .onBeforeHandle(checkPathIds)
    .post('/v1/agents', ({ call, body }) => {
      return deps.bus.call(agentSubjects.create, call, agentBody(AgentCreateBody, body));
    })
    .get('/v1/agents', ({ call, url }) =>
      servePage(agentListRoute, { bus: deps.bus, cursorKey: deps.config.cursorKey }, call, url),
    )
    .get('/v1/agents/:agent_id', ({ call, url, params }) => {
      const { version } = parseQuery(url, AgentGetQuery);
      return deps.bus.call(agentSubjects.get, call, { agent_id: params.agent_id, version });
    })
    .post('/v1/agents/:agent_id', ({ call, params, body }) => {
      return deps.bus.call(agentSubjects.update, call, { agent_id: params.agent_id, update: agentBody(AgentUpdateBody, body) });
    })
    .post('/v1/agents/:agent_id/archive', ({ call, params, body }) => {
      emptyBody(body);
      return deps.bus.call(agentSubjects.archive, call, { agent_id: params.agent_id });
    });
