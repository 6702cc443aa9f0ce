import type { Handler } from '@shared/bus/bus-server';
import type { agentSubjects } from '@shared/bus/subjects/catalog';
import { notFound } from '@shared/errors/api-error';
import { requireTenant, type CatalogDeps } from '../catalog-deps';
import { addAgentVersion, definitionOf, findAgent, lockAgent, presentAgent } from '../db/agents';
import { applyAgentUpdate, checkAgentUpdatable, sameDefinition } from '../domain/agent-definition';

type S = typeof agentSubjects.update;
/** Adds version N+1 under the agent's row lock; an update that changes nothing adds no version. */
export const updateAgent =
  (deps: CatalogDeps): Handler<S> =>
  async ({ agent_id: id, update: patch }, ctx) => {
    const tenant = requireTenant(ctx);
    await deps.db.transaction(async (tx) => {
      const agent = await lockAgent(tx, tenant, id);
      if (!agent) throw notFound(`agent ${id} not found`);
      checkAgentUpdatable(agent, patch.version);
      const current = await findAgent(tx, tenant, id);
      const before = definitionOf(current!.version);
      const after = applyAgentUpdate(before, patch, deps.models);
      if (!sameDefinition(before, after)) {
        await addAgentVersion(tx, id, agent.latestVersion + 1, after, deps.clock.now());
      }
    });
    const updated = await findAgent(deps.db, tenant, id);
    if (!updated) throw notFound(`agent ${id} not found`);
    return presentAgent(updated.agent, updated.version);
  };
