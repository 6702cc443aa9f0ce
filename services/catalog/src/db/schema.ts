import { bigint, customType, index, int, mediumtext, mysqlTable, primaryKey, text, varchar } from 'drizzle-orm/mysql-core';
import { instant, lifecycleColumns, ownedRowColumns, rowId } from '@shared/db/columns';
import { defineOutboxDeadLetterTable, defineOutboxTable } from '@shared/db/outbox-table';
import { jsonColumn } from '@shared/db/json-column';
import type { AgentModelConfig, ExecutionIdentity } from '@shared/schema/agent';
import type { AgentTool, McpServer, Skill } from '@shared/schema/agent-tools';
import type { Multiagent } from '@shared/schema/agent-multiagent';
import type { EnvironmentConfig } from '@shared/schema/environment';

/** The catalog's own tables. Every resource row carries its tenant; every query filters on it. */
export const outbox = defineOutboxTable();
export const outboxDeadLetters = defineOutboxDeadLetterTable();

/** Up to 16 MiB per value; file chunks stay far below it and below max_allowed_packet. */
const mediumblob = customType<{ data: Buffer; driverData: Buffer }>({
  dataType: () => 'mediumblob',
});

/** One row per agent: its identity, tenant and lifecycle. The content lives in versions. */
export const agents = mysqlTable(
  'agents',
  {
    ...ownedRowColumns(),
    latestVersion: int('latest_version').notNull(),
    ...lifecycleColumns(),
  },
  (t) => [index('agents_tenant_created').on(t.organizationId, t.workspaceId, t.createdAt, t.id)],
);

/** Immutable snapshots: an update adds version N+1 and never rewrites an older one. */
export const agentVersions = mysqlTable(
  'agent_versions',
  {
    agentId: rowId('agent_id').notNull(),
    version: int('version').notNull(),
    name: varchar('name', { length: 256 }).notNull(),
    description: text('description'),
    model: jsonColumn<AgentModelConfig>('model').notNull(),
    system: mediumtext('system'),
    metadata: jsonColumn<Record<string, string>>('metadata').notNull(),
    executionIdentity: jsonColumn<ExecutionIdentity>('execution_identity').notNull(),
    /** In their response form (defaults filled in, agents named pinned to versions), as the version is shown. */
    tools: jsonColumn<AgentTool[]>('tools').notNull(),
    mcpServers: jsonColumn<McpServer[]>('mcp_servers').notNull(),
    skills: jsonColumn<Skill[]>('skills').notNull(),
    multiagent: jsonColumn<Multiagent>('multiagent'),
    createdAt: instant('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.agentId, t.version] })],
);

export const environments = mysqlTable(
  'environments',
  {
    ...ownedRowColumns(),
    name: varchar('name', { length: 256 }).notNull(),
    description: text('description'),
    /** `cloud` or `self_hosted`, in response form; a JSON column, so either fits without a migration. */
    config: jsonColumn<EnvironmentConfig>('config').notNull(),
    metadata: jsonColumn<Record<string, string>>('metadata').notNull(),
    ...lifecycleColumns(),
  },
  (t) => [index('environments_tenant_created').on(t.organizationId, t.workspaceId, t.createdAt, t.id)],
);

export const files = mysqlTable(
  'files',
  {
    ...ownedRowColumns(),
    filename: varchar('filename', { length: 255 }).notNull(),
    mimeType: varchar('mime_type', { length: 255 }).notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number', unsigned: true }).notNull(),
    chunkCount: int('chunk_count').notNull(),
    createdAt: instant('created_at').notNull(),
  },
  (t) => [index('files_tenant_created').on(t.organizationId, t.workspaceId, t.createdAt, t.id)],
);

/** File contents in fixed-size pieces, written one row per statement. */
export const fileChunks = mysqlTable(
  'file_chunks',
  {
    fileId: rowId('file_id').notNull(),
    seq: int('seq').notNull(),
    data: mediumblob('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.seq] })],
);

export const memoryStores = mysqlTable(
  'memory_stores',
  {
    ...ownedRowColumns(),
    name: varchar('name', { length: 256 }).notNull(),
    description: text('description').notNull(),
    metadata: jsonColumn<Record<string, string>>('metadata').notNull(),
    ...lifecycleColumns(),
  },
  (t) => [index('memory_stores_tenant_created').on(t.organizationId, t.workspaceId, t.createdAt, t.id)],
);

export type AgentRow = typeof agents.$inferSelect;
export type AgentVersionRow = typeof agentVersions.$inferSelect;
export type EnvironmentRow = typeof environments.$inferSelect;
export type FileRow = typeof files.$inferSelect;
export type MemoryStoreRow = typeof memoryStores.$inferSelect;
