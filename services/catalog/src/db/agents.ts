import { newRowColumns } from '@shared/db/columns';
import type { PageRequest } from '@shared/db/keyset-page';
import { and, eq } from 'drizzle-orm';
import type { Executor, ReadOptions } from '@shared/db/executor';
import { keysetAfter, newestFirst, readPage } from '@shared/db/keyset-page';
import { ownedBy } from '@shared/db/owned-by';
import { recordEvent } from '@shared/bus/outbox';
import { agentEvents, type AgentListFilters } from '@shared/schema/agent';
import type { PagePosition } from '@shared/schema/common';
import type { Tenant } from '@shared/schema/tenant';
import type { AgentDefinition } from '../domain/agent-definition';
import { archivableListConditions } from '@shared/db/list-filters';
import { agents, agentVersions, outbox, type AgentRow, type AgentVersionRow } from './schema';

/** An agent with one of its versions: what every read of an agent answers with. */
export interface AgentAtVersion {
  agent: AgentRow;
  version: AgentVersionRow;
}

const versionValues = (agentId: string, version: number, d: AgentDefinition, now: Date): AgentVersionRow => ({
  agentId,
  version,
  name: d.name,
  description: d.description,
  model: d.model,
  system: d.system,
  metadata: d.metadata,
  executionIdentity: d.executionIdentity,
  createdAt: now,
});

/** The agent and its version 1, in the caller's transaction. */
export async function insertAgent(
  tx: Executor,
  input: { id: string; tenant: Tenant; definition: AgentDefinition; now: Date },
): Promise<void> {
  await tx.insert(agents).values({ ...newRowColumns(input.id, input.tenant, input.now), latestVersion: 1 });
  await tx.insert(agentVersions).values(versionValues(input.id, 1, input.definition, input.now));
}

/** The agent at `version`, or at its latest version when none is given. */
export async function findAgent(
  db: Executor,
  tenant: Tenant,
  id: string,
  version?: number,
  options: ReadOptions = {},
): Promise<AgentAtVersion | undefined> {
  const query = db
    .select()
    .from(agents)
    .innerJoin(
      agentVersions,
      and(eq(agentVersions.agentId, agents.id), eq(agentVersions.version, version ?? agents.latestVersion)),
    )
    .where(and(eq(agents.id, id), ownedBy(agents, tenant)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row ? { agent: row.agents, version: row.agent_versions } : undefined;
}

/**
 * Adds version `version` (immutable), makes it the agent's latest and announces it
 * (`catalog.agent.updated`), in the caller's transaction: what `agent: "<id>"` resolves to
 * changes, and the deployments replicas' reference caches learn it from that event only.
 */
export async function insertAgentVersion(
  tx: Executor,
  input: { id: string; tenant: Tenant; version: number; definition: AgentDefinition; now: Date },
): Promise<void> {
  const { id, tenant, version, definition, now } = input;
  await tx.insert(agentVersions).values(versionValues(id, version, definition, now));
  await tx.update(agents).set({ latestVersion: version, updatedAt: now }).where(eq(agents.id, id));
  await recordEvent(tx, outbox, agentEvents.updated, tenant, { agent_id: id }, now);
}

/** One page of the tenant's agents at their latest version, newest first. */
export function listAgentPage<T>(
  db: Executor,
  tenant: Tenant,
  request: PageRequest<AgentListFilters>,
  present: (found: AgentAtVersion) => T,
) {
  const readChunk = async (from: PagePosition | null, count: number) => {
    const rows = await db
      .select()
      .from(agents)
      .innerJoin(agentVersions, and(eq(agentVersions.agentId, agents.id), eq(agentVersions.version, agents.latestVersion)))
      .where(and(ownedBy(agents, tenant), ...archivableListConditions(agents, request.filters), keysetAfter(agents, from)))
      .orderBy(...newestFirst(agents))
      .limit(count);
    return rows.map((r) => ({ agent: r.agents, version: r.agent_versions, id: r.agents.id, createdAt: r.agents.createdAt }));
  };
  return readPage(readChunk, request.after, request.limit, present);
}
