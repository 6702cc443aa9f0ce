import type { Handler } from '@shared/bus/bus-server';
import { recordEvent } from '@shared/bus/outbox';
import type { agentSubjects } from '@shared/bus/subjects/catalog';
import { notFound } from '@shared/errors/api-error';
import { agentEvents } from '@shared/schema/agent';
import { requireTenant, type CatalogDeps } from '../catalog-deps';
import { findAgent, lockAgent, markAgentArchived, presentAgent } from '../db/agents';
import { outbox } from '../db/schema';

type S = typeof agentSubjects.archive;
/** Idempotent: archiving an archived agent changes nothing and announces nothing. */
export const archiveAgent =
  (deps: CatalogDeps): Handler<S> =>
  async ({ agent_id: id }, ctx) => {
    const tenant = requireTenant(ctx);
    const archivedNow = await deps.db.transaction(async (tx) => {
      const agent = await lockAgent(tx, tenant, id);
      if (!agent) throw notFound(`agent ${id} not found`);
      if (agent.archivedAt) return false;
      const now = deps.clock.now();
      await markAgentArchived(tx, id, now);
      await recordEvent(tx, outbox, agentEvents.archived, tenant, { agent_id: id }, now);
      return true;
    });
    if (archivedNow) deps.eventsRecorded();
    const archived = await findAgent(deps.db, tenant, id);
    if (!archived) throw notFound(`agent ${id} not found`);
    return presentAgent(archived.agent, archived.version);
  };
