import { and, eq } from 'drizzle-orm';
import type { Agent, AgentListFilters } from '@shared/schema/agent';
import type { PagePosition } from '@shared/schema/common';
import type { AgentDefinition } from '../domain/agent-definition';
import { keysetAfter, newestFirst, readPage } from '@shared/db/keyset-page';
import { listFilters } from './list-filters';
import { agents, agentVersions } from './schema';
import { ownedBy, type Executor, type TenantScope } from './scope';

export type AgentRow = typeof agents.$inferSelect;
type VersionRow = typeof agentVersions.$inferSelect;

/** The latest version shows the agent's own updated_at (archiving moves it); older ones their creation. */
export function presentAgent(agent: AgentRow, version: VersionRow): Agent {
  const latest = version.version === agent.latestVersion;
  return {
    type: 'agent',
    id: agent.id,
    version: version.version,
    name: version.name,
    description: version.description,
    model: version.model,
    system: version.system,
    metadata: version.metadata,
    execution_identity: version.executionIdentity,
    tools: [],
    mcp_servers: [],
    skills: [],
    multiagent: null,
    created_at: agent.createdAt.toISOString(),
    updated_at: (latest ? agent.updatedAt : version.createdAt).toISOString(),
    archived_at: agent.archivedAt?.toISOString() ?? null,
  };
}

export function definitionOf(version: VersionRow): AgentDefinition {
  return {
    name: version.name,
    description: version.description,
    model: version.model,
    system: version.system,
    metadata: version.metadata,
    executionIdentity: version.executionIdentity,
  };
}

const versionValues = (agentId: string, version: number, d: AgentDefinition, now: Date) => ({
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

export async function insertAgent(
  tx: Executor,
  input: { id: string; tenant: TenantScope; definition: AgentDefinition; now: Date },
): Promise<void> {
  await tx.insert(agents).values({
    id: input.id,
    organizationId: input.tenant.organization_id,
    workspaceId: input.tenant.workspace_id,
    latestVersion: 1,
    createdAt: input.now,
    updatedAt: input.now,
    archivedAt: null,
  });
  await tx.insert(agentVersions).values(versionValues(input.id, 1, input.definition, input.now));
}

/** The agent at `version`, or at its latest version when none is given. */
export async function findAgent(
  db: Executor,
  tenant: TenantScope,
  id: string,
  version?: number,
): Promise<{ agent: AgentRow; version: VersionRow } | undefined> {
  const [row] = await db
    .select()
    .from(agents)
    .innerJoin(
      agentVersions,
      and(eq(agentVersions.agentId, agents.id), eq(agentVersions.version, version ?? agents.latestVersion)),
    )
    .where(and(eq(agents.id, id), ownedBy(agents, tenant)));
  return row ? { agent: row.agents, version: row.agent_versions } : undefined;
}

/** Takes the agent's row lock, so concurrent updates of one agent run one after another. */
export async function lockAgent(tx: Executor, tenant: TenantScope, id: string): Promise<AgentRow | undefined> {
  const [row] = await tx
    .select()
    .from(agents)
    .where(and(eq(agents.id, id), ownedBy(agents, tenant)))
    .for('update');
  return row;
}

export async function addAgentVersion(
  tx: Executor,
  agentId: string,
  version: number,
  definition: AgentDefinition,
  now: Date,
): Promise<void> {
  await tx.insert(agentVersions).values(versionValues(agentId, version, definition, now));
  await tx.update(agents).set({ latestVersion: version, updatedAt: now }).where(eq(agents.id, agentId));
}

export async function markAgentArchived(tx: Executor, agentId: string, now: Date): Promise<void> {
  await tx.update(agents).set({ archivedAt: now, updatedAt: now }).where(eq(agents.id, agentId));
}

export async function listAgents(
  db: Executor,
  tenant: TenantScope,
  request: { filters: AgentListFilters; limit: number; after: PagePosition | null },
) {
  const readChunk = async (from: PagePosition | null, count: number) => {
    const rows = await db
      .select()
      .from(agents)
      .innerJoin(agentVersions, and(eq(agentVersions.agentId, agents.id), eq(agentVersions.version, agents.latestVersion)))
      .where(and(ownedBy(agents, tenant), ...listFilters(agents, request.filters), keysetAfter(agents, from)))
      .orderBy(...newestFirst(agents))
      .limit(count);
    return rows.map((r) => ({ ...r, id: r.agents.id, createdAt: r.agents.createdAt }));
  };
  return readPage(readChunk, request.after, request.limit, (r) => presentAgent(r.agents, r.agent_versions));
}
