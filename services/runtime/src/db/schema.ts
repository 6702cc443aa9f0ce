import { index, mediumtext, mysqlTable, primaryKey, varchar } from 'drizzle-orm/mysql-core';
import { instant, ownedRowColumns, rowId, tenantColumns } from '@shared/db/columns';
import { jsonColumn } from '@shared/db/json-column';
import type { WorkPool, WorkState } from '@shared/schema/work';

/**
 * Which replica drives a session now. A replica takes the lease before it reads a session's log
 * and renews it while a turn runs; another replica that is handed the same session meanwhile
 * puts the notice back for later. A crashed replica's lease lapses after RUNTIME_LEASE_MS and
 * the session's next delivery is driven elsewhere. The log's fence (append's after_sequence)
 * keeps even a replica that outlived its lease from recording anything twice.
 */
export const sessionLeases = mysqlTable('session_leases', {
  sessionId: rowId('session_id').primaryKey(),
  holder: varchar('holder', { length: 128 }).notNull(),
  expiresAt: instant('expires_at').notNull(),
});

/**
 * Environments' work queues: one item per session whose agent-toolset tool calls wait for an
 * environment worker, from `queued` to `stopped` (domain/work-lifecycle.ts). `leaseExpiresAt` is
 * the poll's hold on a queued item (so two polls never hand out one item) and then the
 * heartbeat lease of the worker serving it. `pool` says which workers serve it (WorkPool).
 */
export const workItems = mysqlTable(
  'work_items',
  {
    ...ownedRowColumns(),
    environmentId: varchar('environment_id', { length: 128 }).notNull(),
    sessionId: rowId('session_id').notNull(),
    state: varchar('state', { length: 16 }).$type<WorkState>().notNull(),
    metadata: jsonColumn<Record<string, string>>('metadata').notNull(),
    workerId: varchar('worker_id', { length: 256 }),
    createdAt: instant('created_at').notNull(),
    acknowledgedAt: instant('acknowledged_at'),
    startedAt: instant('started_at'),
    latestHeartbeatAt: instant('latest_heartbeat_at'),
    leaseExpiresAt: instant('lease_expires_at'),
    stopRequestedAt: instant('stop_requested_at'),
    stoppedAt: instant('stopped_at'),
    /**
     * Rows from before pools existed are `self_hosted`: until then only self-hosted workers
     * (the SDK's poller) could take an item, so that is who may hold or retake them now; a
     * `cloud` default would have moved items a self-hosted worker is serving to the sandbox
     * workers. New rows always name their pool.
     */
    pool: varchar('pool', { length: 16 }).$type<WorkPool>().notNull().default('self_hosted'),
  },
  (t) => [
    index('work_items_queue').on(t.organizationId, t.workspaceId, t.environmentId, t.state, t.createdAt),
    index('work_items_session').on(t.sessionId, t.state),
    // The sandbox workers' claim across tenants (domain/work-claims.ts), read from indexes alone:
    // the items being served per tenant, a tenant's oldest queued item, lapsed leases, the gauge...
    index('work_items_pool').on(t.pool, t.state, t.organizationId, t.workspaceId, t.createdAt),
    // ...and each tenant's oldest queued item over all tenants, by a loose index scan (one probe
    // per tenant, however many items one has queued), which needs the tenant first.
    index('work_items_tenant_pool').on(t.organizationId, t.workspaceId, t.pool, t.state, t.createdAt),
  ],
);
export type WorkItemRow = typeof workItems.$inferSelect;

/**
 * Workers that polled an environment with an id (the SDK's `Anthropic-Worker-ID`), and when
 * they last did: `workers_polling` counts those seen within 30 s. A replica writes a worker's
 * row at most every few seconds, so a worker's steady long polls cost few writes.
 */
export const workPollers = mysqlTable(
  'work_pollers',
  {
    ...tenantColumns(),
    environmentId: varchar('environment_id', { length: 128 }).notNull(),
    workerId: varchar('worker_id', { length: 256 }).notNull(),
    lastPolledAt: instant('last_polled_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'work_pollers_worker', columns: [t.organizationId, t.workspaceId, t.environmentId, t.workerId] }),
    index('work_pollers_recent').on(t.organizationId, t.workspaceId, t.environmentId, t.lastPolledAt),
  ],
);

/**
 * The summaries a session's conversation was compacted into (domain/context-compaction.ts), by
 * the span of the summary turn whose `agent.thread_context_compacted` they stand for. The SDK's
 * event has no field for the summary and clients are never shown it: it is the runtime's model
 * context, kept here. Written before the compacted event is appended (so a recorded compaction
 * always has its summary); a session keeps the latest only (each summary covers the one before),
 * and none once it is deleted.
 */
export const contextSummaries = mysqlTable(
  'context_summaries',
  {
    ...tenantColumns(),
    sessionId: rowId('session_id').notNull(),
    spanStartId: rowId('span_start_id').notNull(),
    summary: mediumtext('summary').notNull(),
    createdAt: instant('created_at').notNull(),
  },
  (t) => [primaryKey({ name: 'context_summaries_span', columns: [t.sessionId, t.spanStartId] })],
);
