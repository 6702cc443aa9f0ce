import type { Agent } from '@shared/schema/agent';
import type { Environment } from '@shared/schema/environment';
import type { FileMetadata } from '@shared/schema/file';
import type { MemoryStore } from '@shared/schema/memory-store';
import { toTimestamp } from '@shared/time/clock';
import { lifecycleTimestamps } from '@shared/time/lifecycle-timestamps';
import type { AgentRow, AgentVersionRow, EnvironmentRow, FileRow, MemoryStoreRow } from '../db/schema';

/** Rows as the API shows them. */

/** The latest version shows the agent's own updated_at (archiving moves it); older ones their creation. */
export function presentAgent(agent: AgentRow, version: AgentVersionRow): Agent {
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
    tools: version.tools,
    mcp_servers: version.mcpServers,
    skills: version.skills,
    multiagent: version.multiagent,
    created_at: toTimestamp(agent.createdAt),
    updated_at: toTimestamp(latest ? agent.updatedAt : version.createdAt),
    archived_at: agent.archivedAt ? toTimestamp(agent.archivedAt) : null,
  };
}

export const presentEnvironment = (row: EnvironmentRow): Environment => ({
  type: 'environment',
  id: row.id,
  name: row.name,
  description: row.description,
  config: row.config,
  metadata: row.metadata,
  ...lifecycleTimestamps(row),
});

export const presentMemoryStore = (row: MemoryStoreRow): MemoryStore => ({
  type: 'memory_store',
  id: row.id,
  name: row.name,
  description: row.description,
  metadata: row.metadata,
  ...lifecycleTimestamps(row),
});

export const presentFile = (row: FileRow): FileMetadata => ({
  type: 'file',
  id: row.id,
  filename: row.filename,
  mime_type: row.mimeType,
  size_bytes: row.sizeBytes,
  created_at: toTimestamp(row.createdAt),
  downloadable: true,
});
