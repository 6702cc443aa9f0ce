import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { agentSubjects } from '@shared/bus/subjects/catalog';
import { newId } from '@shared/ids/ids';
import { findAgent, findNamedAgents, insertAgent } from '../db/agents';
import { newAgentDefinition, rosterLookup } from '../domain/agent-definition';
import { agentsNamed } from '../domain/agent-multiagent';
import { presentAgent } from '../domain/present';
import type { CatalogDeps } from '../deps';
import { checkAgentSkills } from './skill-lookup';

type S = typeof agentSubjects.create;
/** The agents a multiagent configuration names are read first and pinned to their versions (a later archive of one does not undo this agent). */
export const createAgent =
  (deps: CatalogDeps): Handler<S> =>
  async (body, ctx) => {
    const tenant = tenantOf(ctx);
    const id = newId('agent');
    const named = await findNamedAgents(deps.db, tenant, agentsNamed(body.multiagent ?? null, id));
    const definition = newAgentDefinition(body, deps.models, { self: { id, version: 1 }, lookup: rosterLookup(named) }, deps.mcpUrls);
    await checkAgentSkills(deps.db, tenant, definition.skills);
    await deps.db.transaction((tx) => insertAgent(tx, { id, tenant, definition, now: deps.clock.now() }));
    const created = await findAgent(deps.db, tenant, id);
    return presentAgent(created!.agent, created!.version);
  };
