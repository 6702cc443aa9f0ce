import { index, int, mysqlTable, primaryKey, text, uniqueIndex, varchar, type AnyMySqlColumn } from 'drizzle-orm/mysql-core';
import { appendedRowColumns, instant, lifecycleColumns, ownedRowColumns, rowId, tenantColumns } from '@shared/db/columns';
import { defineOutboxDeadLetterTable, defineOutboxTable } from '@shared/db/outbox-table';
import { jsonColumn } from '@shared/db/json-column';
import type { Budget, InitialEvent, PausedReason, SessionResourceConfig } from '@shared/schema/deployment';
import type { RunErrorType } from '@shared/schema/deployment-run';
import type { SessionEventBody, UsageDelta } from '@shared/schema/session-event';
import type { OutcomeEvaluation, SessionAgent, SessionStatus, StoredSessionResource } from '@shared/schema/session';

// Besides the column groups every service shares (shared/db/columns.ts):
/** The agent, pinned to a version. */
const pinnedAgent = () => ({
  agentId: varchar('agent_id', { length: 128 }).notNull(),
  agentVersion: int('agent_version').notNull(),
});
/** A list index: the tenant, the filter's equality columns, then the keyset order (created_at, id). */
const listIndex = <T extends { organizationId: AnyMySqlColumn; workspaceId: AnyMySqlColumn; createdAt: AnyMySqlColumn; id: AnyMySqlColumn }>(
  name: string,
  t: T,
  ...equalities: AnyMySqlColumn[]
) => index(name).on(t.organizationId, t.workspaceId, ...equalities, t.createdAt, t.id);

/** The deployments service's own tables. */
export const outbox = defineOutboxTable();
export const outboxDeadLetters = defineOutboxDeadLetterTable();

/**
 * The list indexes, one per filter shape, each ending in the keyset order (created_at, id):
 * every tenant, every live (not archived) deployment, by status, by agent. Named here because
 * the list query names the one its filters need (see listDeploymentPage).
 */
export const DEPLOYMENT_LIST_INDEXES = {
  all: 'deployments_tenant_created',
  live: 'deployments_tenant_live_created',
  status: 'deployments_tenant_status_created',
  agent: 'deployments_tenant_agent_created',
} as const;

/**
 * One row per deployment. What lists filter and sort on is a column; the rest of the resource
 * (events, resources in their returned form, metadata) is JSON, read whole with the row.
 * Timestamps are DATETIME(3): milliseconds, the precision the API shows and cursors carry.
 */
export const deployments = mysqlTable(
  'deployments',
  {
    ...appendedRowColumns(),
    name: varchar('name', { length: 256 }).notNull(),
    description: text('description'),
    ...pinnedAgent(),
    environmentId: varchar('environment_id', { length: 128 }).notNull(),
    vaultIds: jsonColumn<string[]>('vault_ids').notNull(),
    initialEvents: jsonColumn<InitialEvent[]>('initial_events').notNull(),
    /** The config form: write-only credentials are never in here (see deployment_secrets). */
    resources: jsonColumn<SessionResourceConfig[]>('resources').notNull(),
    metadata: jsonColumn<Record<string, string>>('metadata').notNull(),
    scheduleExpression: varchar('schedule_expression', { length: 256 }),
    scheduleTimezone: varchar('schedule_timezone', { length: 64 }),
    lastRunAt: instant('last_run_at'),
    status: varchar('status', { length: 16, enum: ['active', 'paused'] }).notNull(),
    pausedReason: jsonColumn<PausedReason>('paused_reason'),
    budget: jsonColumn<Budget>('budget'),
    /** Grows with every change; carried by every deployment event so consumers drop stale ones. */
    revision: int('revision').notNull(),
    /** This deployment's data key, wrapped by the master key `dataKeyId`; null when it holds no secret. */
    dataKeyId: varchar('data_key_id', { length: 32 }),
    dataKeyWrapped: varchar('data_key_wrapped', { length: 255 }),
    ...lifecycleColumns(),
  },
  (t) => [
    uniqueIndex('deployments_id').on(t.id),
    listIndex(DEPLOYMENT_LIST_INDEXES.all, t),
    listIndex(DEPLOYMENT_LIST_INDEXES.live, t, t.archivedAt),
    listIndex(DEPLOYMENT_LIST_INDEXES.status, t, t.status, t.archivedAt),
    listIndex(DEPLOYMENT_LIST_INDEXES.agent, t, t.agentId),
  ],
);
/** A deployment as the service handles it: `seq` is the table's own business (see appendedRowColumns). */
export type DeploymentRow = Omit<typeof deployments.$inferSelect, 'seq'>;

/**
 * Write-only resource credentials (repository tokens), sealed under the deployment's data key
 * and bound to (deployment, resource position). Kept apart from `deployments` so no list or get
 * ever reads them by accident.
 */
export const deploymentSecrets = mysqlTable(
  'deployment_secrets',
  {
    deploymentId: rowId('deployment_id').notNull(),
    resourceIndex: int('resource_index').notNull(),
    sealed: text('sealed').notNull(),
  },
  (t) => [primaryKey({ columns: [t.deploymentId, t.resourceIndex] })],
);

/** The run and session list indexes, named for the same reason as DEPLOYMENT_LIST_INDEXES. */
export const RUN_LIST_INDEXES = {
  all: 'deployment_runs_tenant_created',
  deployment: 'deployment_runs_tenant_deployment_created',
} as const;
/**
 * Sessions: one index per filter that narrows a list by equality, each ending in the keyset
 * order so a page is an index seek in either direction. Filters without their own index
 * (archived_at, several statuses at once, a second equality filter) are checked on the rows the
 * chosen index yields (see sessionListIndex, db/session-list.ts). Listing by memory store goes through
 * session_memory_stores and its own index.
 */
export const SESSION_LIST_INDEXES = {
  all: 'sessions_tenant_created',
  deployment: 'sessions_tenant_deployment_created',
  agent: 'sessions_tenant_agent_created',
  agentVersion: 'sessions_tenant_agent_version_created',
  status: 'sessions_tenant_status_created',
} as const;
export const SESSION_MEMORY_STORE_INDEX = 'session_memory_stores_tenant_store_created';

/**
 * One row per fire that got as far as recording something: a session created, or the error
 * that prevented it. Append-only. `scheduled_at` is the cron occurrence of a scheduled fire
 * (null for manual runs); the unique key on (deployment_id, scheduled_at) is what makes a
 * scheduled occurrence fire at most once whatever the scheduler repeats (NULLs never collide,
 * so manual runs are unlimited).
 */
export const deploymentRuns = mysqlTable(
  'deployment_runs',
  {
    ...ownedRowColumns(),
    deploymentId: rowId('deployment_id').notNull(),
    ...pinnedAgent(),
    triggerType: varchar('trigger_type', { length: 16, enum: ['manual', 'schedule'] }).notNull(),
    scheduledAt: instant('scheduled_at'),
    sessionId: rowId('session_id'),
    errorType: varchar('error_type', { length: 64 }).$type<RunErrorType>(),
    errorMessage: text('error_message'),
    createdAt: instant('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('deployment_runs_occurrence').on(t.deploymentId, t.scheduledAt),
    listIndex(RUN_LIST_INDEXES.all, t),
    listIndex(RUN_LIST_INDEXES.deployment, t, t.deploymentId),
  ],
);
export type DeploymentRunRow = typeof deploymentRuns.$inferSelect;

/**
 * Sessions, created by `POST /v1/sessions` or by a fire (a snapshot of the deployment at fire
 * time, written in the same transaction as the run that names it), both through
 * domain/session-create.ts.
 */
export const sessions = mysqlTable(
  'sessions',
  {
    ...ownedRowColumns(),
    deploymentId: rowId('deployment_id'),
    ...pinnedAgent(),
    /**
     * The agent version's definition at creation (SessionAgent). Null on sessions created before
     * it was kept: those are shown with the version's definition asked of the catalog (versions
     * are immutable, so it is the same one): clients/agent-versions.ts ofSession.
     */
    agent: jsonColumn<SessionAgent>('agent'),
    environmentId: varchar('environment_id', { length: 128 }).notNull(),
    vaultIds: jsonColumn<string[]>('vault_ids').notNull(),
    /** Without ids until the list first changes: see domain/session-resources.ts. */
    resources: jsonColumn<StoredSessionResource[]>('resources').notNull(),
    budget: jsonColumn<Budget>('budget'),
    initialEvents: jsonColumn<InitialEvent[]>('initial_events').notNull(),
    status: varchar('status', { length: 16 }).$type<SessionStatus>().notNull(),
    metadata: jsonColumn<Record<string, string>>('metadata').notNull(),
    title: text('title'),
    /**
     * One per `user.define_outcome` of the session's log (initial ones written at creation, sent
     * ones appended with them: db/sessions.ts addOutcomeEvaluations). Null on sessions stored before
     * it was kept: those show the ones of their initial events (domain/session-create.ts).
     */
    outcomeEvaluations: jsonColumn<OutcomeEvaluation[]>('outcome_evaluations'),
    /**
     * What running the session has cost so far: the runtime's model responses' tokens and their
     * list cost in exact units (shared/usage/list-cost.ts), added by each append that carries
     * usage (db/session-log.ts appendFencedToSessionLog). Null until the first model response.
     */
    usage: jsonColumn<UsageDelta>('usage'),
    /**
     * The sequence its log ends at (0: empty), kept by every append in the transaction that adds
     * to the log (db/session-log.ts), so an append reads it with the row it locks rather than
     * asking the log for its max. Never ahead of the log, but behind it while replicas older than
     * the column still append: an append that collides on the log's key reads the log's end.
     */
    lastSequence: int('last_sequence').notNull().default(0),
    /**
     * Moved by every change of the row that is not its log's summary (db/sessions.ts
     * updateSession: an update, an archive, a resource change), never by an append. An append's
     * notice carries it, so the runtime knows the session it read for the last drive is the one
     * it would read now (docs/decisions.md, "A drive's first read comes with its notice").
     */
    revision: int('revision').notNull().default(0),
    /** This session's data key (wrapped), sealing its own repository tokens; null while it holds none. */
    dataKeyId: varchar('data_key_id', { length: 32 }),
    dataKeyWrapped: varchar('data_key_wrapped', { length: 255 }),
    ...lifecycleColumns(),
  },
  (t) => [
    listIndex(SESSION_LIST_INDEXES.all, t),
    listIndex(SESSION_LIST_INDEXES.deployment, t, t.deploymentId),
    listIndex(SESSION_LIST_INDEXES.agent, t, t.agentId),
    listIndex(SESSION_LIST_INDEXES.agentVersion, t, t.agentId, t.agentVersion),
    listIndex(SESSION_LIST_INDEXES.status, t, t.status),
  ],
);
export type SessionRow = typeof sessions.$inferSelect;

/**
 * Repository tokens of sessions created through the API or rotated on a session, sealed under
 * the session's data key and bound to (session, resource id). A fired session's tokens stay
 * sealed with its deployment (deployment_secrets) until one is rotated here.
 */
export const sessionSecrets = mysqlTable(
  'session_secrets',
  {
    sessionId: rowId('session_id').notNull(),
    resourceId: varchar('resource_id', { length: 40 }).notNull(),
    sealed: text('sealed').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.resourceId] })],
);

/**
 * The memory stores each session's resources mount, one row per (session, store), written in
 * the transaction that inserts the session: what `GET /v1/sessions?memory_store_id=` pages on.
 * The session's tenant and creation time are copied here so a page is one seek on this table's
 * index, in keyset order, joined to `sessions` by primary key. Kept in step with the
 * session's resources by every change of them (db/sessions.ts).
 */
export const sessionMemoryStores = mysqlTable(
  'session_memory_stores',
  {
    sessionId: rowId('session_id').notNull(),
    memoryStoreId: varchar('memory_store_id', { length: 128 }).notNull(),
    ...tenantColumns(),
    sessionCreatedAt: instant('session_created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.memoryStoreId] }),
    index(SESSION_MEMORY_STORE_INDEX).on(t.organizationId, t.workspaceId, t.memoryStoreId, t.sessionCreatedAt, t.sessionId),
  ],
);

/**
 * Every event of a session, in order: `sequence` counts from 1 per session with no gap (the log
 * is appended under the session row's lock), so a list pages by it and a stream resumes after
 * it exactly. `body` is the event's own fields (SessionEventBody); `id` (sevt_…) is what clients
 * see and a stream resumes from. Appended to by db/session-log.ts only.
 */
export const sessionEventLog = mysqlTable(
  'session_events',
  {
    sessionId: rowId('session_id').notNull(),
    sequence: int('sequence').notNull(),
    id: rowId('id').notNull(),
    type: varchar('type', { length: 64 }).notNull(),
    processedAt: instant('processed_at').notNull(),
    body: jsonColumn<SessionEventBody>('body').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.sequence] }), uniqueIndex('session_events_id').on(t.id)],
);
export type SessionEventRow = typeof sessionEventLog.$inferSelect;
