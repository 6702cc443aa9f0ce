import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { agentSubjects } from '@shared/bus/subjects/catalog';
import { newId } from '@shared/ids/ids';
import { findAgent, insertAgent } from '../db/agents';
import { newAgentDefinition } from '../domain/agent-definition';
import { presentAgent } from '../domain/present';
import type { CatalogDeps } from '../service';

type S = typeof agentSubjects.create;
export const createAgent =
  (deps: CatalogDeps): Handler<S> =>
  async (body, ctx) => {
    const tenant = tenantOf(ctx);
    const definition = newAgentDefinition(body, deps.models);
    const id = newId('agent');
    await deps.db.transaction((tx) => insertAgent(tx, { id, tenant, definition, now: deps.clock.now() }));
    const created = await findAgent(deps.db, tenant, id);
    return presentAgent(created!.agent, created!.version);
  };
