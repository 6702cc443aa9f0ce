import { newRowColumns } from '@shared/db/columns';
import { isIdOf } from '@shared/ids/ids';
import type { PageRequest, TenantPageReader } from '@shared/db/keyset-page';
import { and, desc, eq, lt } from 'drizzle-orm';
import type { Executor, ReadOptions } from '@shared/db/executor';
import { keysetAfter, newestFirst, readPage } from '@shared/db/keyset-page';
import { ownedBy } from '@shared/db/owned-by';
import { recordEvent } from '@shared/bus/outbox';
import { invalidRequest } from '@shared/errors/api-error';
import { agentEvents, type AgentListFilters, type AgentVersionListFilters } from '@shared/schema/agent';
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
  tools: d.tools,
  mcpServers: d.mcpServers,
  skills: d.skills,
  multiagent: d.multiagent,
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
 * The agents a multiagent configuration names, of this tenant, each at the version it names (or
 * its latest): one lookup each (a roster names at most 20, and only a multiagent save asks). An
 * id that is not an agent id in its exact form names nothing, and is not looked up.
 */
export async function findNamedAgents(
  db: Executor,
  tenant: Tenant,
  named: Array<{ id: string; version?: number }>,
  options: ReadOptions = {},
): Promise<AgentAtVersion[]> {
  const found: AgentAtVersion[] = [];
  for (const { id, version } of named) {
    if (!isIdOf('agent', id)) continue;
    const agent = await findAgent(db, tenant, id, version, options);
    if (agent) found.push(agent);
  }
  return found;
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
export const listAgentPage: TenantPageReader<AgentListFilters, AgentAtVersion> = (db, tenant, request, present) => {
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
};

/** The agent's own row (no version), of this tenant. */
export async function findAgentRow(db: Executor, tenant: Tenant, id: string): Promise<AgentRow | undefined> {
  const [row] = await db
    .select()
    .from(agents)
    .where(and(eq(agents.id, id), ownedBy(agents, tenant)));
  return row;
}

/**
 * One page of an agent's versions, highest first, on the versions' primary key. A position's `id`
 * is the version number: the agent is in the filters every cursor is bound to, and versions of
 * one agent never share a number (their created_at may, under a fixed clock).
 */
export function listAgentVersionPage<T>(
  db: Executor,
  agent: AgentRow,
  request: PageRequest<AgentVersionListFilters>,
  present: (found: AgentAtVersion) => T,
) {
  const readChunk = async (from: PagePosition | null, count: number) => {
    const below = from === null ? undefined : Number(from.id);
    // Cursors are sealed, so this only guards against a position of another list's kind.
    if (below !== undefined && !Number.isSafeInteger(below)) throw invalidRequest('invalid page cursor');
    const rows = await db
      .select()
      .from(agentVersions)
      .where(and(eq(agentVersions.agentId, agent.id), below === undefined ? undefined : lt(agentVersions.version, below)))
      .orderBy(desc(agentVersions.version))
      .limit(count);
    return rows.map((version) => ({ agent, version, id: String(version.version), createdAt: version.createdAt }));
  };
  return readPage(readChunk, request.after, request.limit, present);
}
