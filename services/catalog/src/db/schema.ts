import { bigint, char, customType, index, int, mediumtext, mysqlTable, primaryKey, text, uniqueIndex, varchar } from 'drizzle-orm/mysql-core';
import { instant, lifecycleColumns, ownedRowColumns, rowId } from '@shared/db/columns';
import { defineOutboxDeadLetterTable, defineOutboxTable } from '@shared/db/outbox-table';
import { jsonColumn } from '@shared/db/json-column';
import type { AgentModelConfig, ExecutionIdentity } from '@shared/schema/agent';
import type { AgentTool, McpServer, AgentSkill } from '@shared/schema/agent-tools';
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
    skills: jsonColumn<AgentSkill[]>('skills').notNull(),
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

/** Custom skills: the newest version's id is what `latest` resolves to. */
export const skills = mysqlTable(
  'skills',
  {
    ...ownedRowColumns(),
    displayName: varchar('display_name', { length: 255 }).notNull(),
    /** The slug every version's files sit under; fixed by the first upload. */
    name: varchar('name', { length: 64 }).notNull(),
    latestVersionId: rowId('latest_version_id').notNull(),
    createdAt: instant('created_at').notNull(),
    updatedAt: instant('updated_at').notNull(),
  },
  (t) => [index('skills_tenant_created').on(t.organizationId, t.workspaceId, t.createdAt, t.id)],
);

/** A skill's uploads, each kept whole as the archive its download serves. */
export const skillVersions = mysqlTable(
  'skill_versions',
  {
    ...ownedRowColumns(),
    skillId: rowId('skill_id').notNull(),
    name: varchar('name', { length: 64 }).notNull(),
    description: text('description').notNull(),
    archive: mediumblob('archive').notNull(),
    createdAt: instant('created_at').notNull(),
  },
  (t) => [index('skill_versions_skill_created').on(t.skillId, t.createdAt, t.id)],
);

export type AgentRow = typeof agents.$inferSelect;
export type AgentVersionRow = typeof agentVersions.$inferSelect;
export type EnvironmentRow = typeof environments.$inferSelect;
export type FileRow = typeof files.$inferSelect;
export type MemoryStoreRow = typeof memoryStores.$inferSelect;
export type SkillRow = typeof skills.$inferSelect;
export type SkillVersionRow = typeof skillVersions.$inferSelect;

/**
 * A memory's path, stored as its UTF-8 bytes: a VARBINARY has no collation, so paths compare
 * byte for byte (case- and trailing-space-sensitive, where a PAD SPACE collation finds `/a` and
 * `/a ` equal) and sort in code-point order, which the list's path order and its range reads
 * (`/a/` up to `/a0`: everything below `/a`) rely on. 1,024 bytes is the path's limit.
 */
const pathBytes = customType<{ data: string; driverData: Buffer | string }>({
  dataType: () => 'varbinary(1024)',
  toDriver: (path) => Buffer.from(path, 'utf8'),
  fromDriver: (value) => (typeof value === 'string' ? value : Buffer.from(value).toString('utf8')),
});

/** A memory's current state; its history is in memory_versions. At most one memory per path of a store. */
export const memories = mysqlTable(
  'memories',
  {
    ...ownedRowColumns(),
    memoryStoreId: rowId('memory_store_id').notNull(),
    path: pathBytes('path').notNull(),
    content: mediumtext('content').notNull(),
    contentSha256: char('content_sha256', { length: 64 }).notNull(),
    contentSizeBytes: int('content_size_bytes').notNull(),
    memoryVersionId: rowId('memory_version_id').notNull(),
    createdAt: instant('created_at').notNull(),
    updatedAt: instant('updated_at').notNull(),
  },
  (t) => [uniqueIndex('memories_store_path').on(t.memoryStoreId, t.path)],
);

/**
 * One row per change of a memory, kept after the memory is deleted (until its store is). The
 * author and redactor are an actor type and id (`api_actor` + key id, `session_actor` + session
 * id), so the list's author filters are plain comparisons.
 */
export const memoryVersions = mysqlTable(
  'memory_versions',
  {
    ...ownedRowColumns(),
    memoryStoreId: rowId('memory_store_id').notNull(),
    memoryId: rowId('memory_id').notNull(),
    operation: varchar('operation', { length: 16 }).$type<'created' | 'modified' | 'deleted'>().notNull(),
    path: pathBytes('path'),
    content: mediumtext('content'),
    contentSha256: char('content_sha256', { length: 64 }),
    contentSizeBytes: int('content_size_bytes'),
    createdByType: varchar('created_by_type', { length: 32 }),
    createdById: varchar('created_by_id', { length: 64 }),
    createdAt: instant('created_at').notNull(),
    redactedAt: instant('redacted_at'),
    redactedByType: varchar('redacted_by_type', { length: 32 }),
    redactedById: varchar('redacted_by_id', { length: 64 }),
  },
  (t) => [
    index('memory_versions_store_created').on(t.memoryStoreId, t.createdAt, t.id),
    index('memory_versions_memory_created').on(t.memoryId, t.createdAt, t.id),
  ],
);

export type MemoryRow = typeof memories.$inferSelect;
export type MemoryVersionRow = typeof memoryVersions.$inferSelect;
