import { index, mysqlTable, varchar } from 'drizzle-orm/mysql-core';
import { instant, ownedRowColumns, rowId } from '@shared/db/columns';
import { jsonColumn } from '@shared/db/json-column';
import type { WorkState } from '@shared/schema/work';

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
 * heartbeat lease of the worker serving it.
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
  },
  (t) => [
    index('work_items_queue').on(t.organizationId, t.workspaceId, t.environmentId, t.state, t.createdAt),
    index('work_items_session').on(t.sessionId, t.state),
  ],
);
export type WorkItemRow = typeof workItems.$inferSelect;
