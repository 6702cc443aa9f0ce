import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { agentSubjects } from '@shared/bus/subjects/catalog';
import { agentEvents } from '@shared/schema/agent';
import { findAgent } from '../db/agents';
import { archiveOwnedRow } from '../db/archive-and-delete';
import { agents } from '../db/schema';
import { agentNotFound } from '../domain/not-found';
import { presentAgent } from '../domain/present';
import type { CatalogDeps } from '../deps';

type S = typeof agentSubjects.archive;
/** Idempotent: archiving an archived agent changes nothing and announces nothing. */
export const archiveAgent =
  (deps: CatalogDeps): Handler<S> =>
  async ({ agent_id: id }, ctx) => {
    const tenant = tenantOf(ctx);
    const archived = await archiveOwnedRow(deps, agents, tenant, id, { event: agentEvents.archived, data: { agent_id: id } });
    // The reply shows the latest version, which lives in its own table.
    const found = archived && (await findAgent(deps.db, tenant, id));
    if (!found) throw agentNotFound(id);
    return presentAgent(found.agent, found.version);
  };
