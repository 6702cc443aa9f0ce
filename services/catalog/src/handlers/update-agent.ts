import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import { found } from '@shared/errors/api-error';
import type { agentSubjects } from '@shared/bus/subjects/catalog';
import { findAgent, findNamedAgents, insertAgentVersion } from '../db/agents';
import { agentsNamed } from '../domain/agent-multiagent';
import { applyAgentUpdate, checkAgentUpdatable, definitionOf, multiagentToResolve, rosterLookup, sameDefinition } from '../domain/agent-definition';
import { agentNotFound } from '../domain/not-found';
import { presentAgent } from '../domain/present';
import type { CatalogDeps } from '../deps';
import { checkAgentSkills } from './skill-lookup';

type S = typeof agentSubjects.update;
/** Adds version N+1 under the agent's row lock and announces it; an update that changes nothing adds no version and announces nothing. */
export const updateAgent =
  (deps: CatalogDeps): Handler<S> =>
  async ({ agent_id: id, update: patch }, ctx) => {
    const tenant = tenantOf(ctx);
    const versionAdded = await deps.db.transaction(async (tx) => {
      // The lock on the agent row makes concurrent updates of one agent run one after another.
      const current = found(await findAgent(tx, tenant, id, undefined, { lock: true }), () => agentNotFound(id));
      checkAgentUpdatable(current.agent, patch.version);
      const before = definitionOf(current.version);
      const version = current.agent.latestVersion + 1;
      const named = await findNamedAgents(tx, tenant, agentsNamed(multiagentToResolve(before, patch) ?? null, id));
      const after = applyAgentUpdate(before, patch, deps.models, { self: { id, version }, lookup: rosterLookup(named) }, deps.mcpUrls);
      if (sameDefinition(before, after, id)) return false;
      if (patch.skills) await checkAgentSkills(tx, tenant, after.skills);
      await insertAgentVersion(tx, { id, tenant, version, definition: after, now: deps.clock.now() });
      return true;
    });
    if (versionAdded) deps.eventsRecorded();
    const updated = found(await findAgent(deps.db, tenant, id), () => agentNotFound(id));
    return presentAgent(updated.agent, updated.version);
  };
