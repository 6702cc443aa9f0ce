import { boolean, datetime, index, int, mysqlTable, varchar } from 'drizzle-orm/mysql-core';

/**
 * One row per deployment the scheduler has heard of: its schedule as of the last applied
 * snapshot and when it next fires. Rows are never deleted (a paused, archived or unscheduled
 * deployment is `active = false`), so the stored revision keeps rejecting older, reordered
 * or redelivered snapshots.
 */
export const schedules = mysqlTable(
  'schedules',
  {
    deploymentId: varchar('deployment_id', { length: 64 }).primaryKey(),
    organizationId: varchar('organization_id', { length: 64 }).notNull(),
    workspaceId: varchar('workspace_id', { length: 64 }).notNull(),
    /** Null when the deployment has no schedule. */
    expression: varchar('expression', { length: 256 }),
    timezone: varchar('timezone', { length: 64 }),
    /** The deployment snapshot revision this row reflects. */
    revision: int('revision', { unsigned: true }).notNull(),
    active: boolean('active').notNull(),
    /** The listed occurrence the row waits for (no jitter); null when inactive. */
    nextOccurrenceAt: datetime('next_occurrence_at', { mode: 'date', fsp: 3 }),
    /** nextOccurrenceAt + the deployment's jitter: when the row becomes due. */
    nextFireAt: datetime('next_fire_at', { mode: 'date', fsp: 3 }),
    /** Claim token of the worker firing the row; valid until claimUntil. */
    claimedBy: varchar('claimed_by', { length: 128 }),
    claimUntil: datetime('claim_until', { mode: 'date', fsp: 3 }),
    updatedAt: datetime('updated_at', { mode: 'date', fsp: 3 }).notNull(),
  },
  (t) => [index('schedules_due').on(t.active, t.nextFireAt)],
);
export type ScheduleRow = typeof schedules.$inferSelect;
