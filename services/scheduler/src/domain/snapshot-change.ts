import type { CronSchedule, ScheduleCache } from '@shared/cron';
import type { DeploymentSnapshot } from '@shared/schema/deployment-events';
import { nextFireAfter, type PlannedFire } from './next-fire';

/** What the scheduler stored from the last snapshot it applied. */
export interface StoredSchedule {
  revision: number;
  active: boolean;
  expression: string | null;
  timezone: string | null;
}

export type SnapshotChange =
  /** Same or older revision: a redelivery or a reordered event; nothing changes. */
  | { kind: 'stale' }
  /** Nothing the timing depends on changed: only the revision (and tenant) move on. */
  | { kind: 'keep_timing' }
  /** The row is (re)planned: new schedule, paused, archived, unscheduled or unpaused. */
  | { kind: 'replan'; active: boolean; schedule: CronSchedule | null; next: PlannedFire | null; invalid?: string };

/**
 * The instant a snapshot is planned from: when the change happened (the event's occurred_at),
 * not when the scheduler heard of it; a sender's clock skewed ahead of ours counts as `now`,
 * and an unreadable timestamp as `now` too.
 */
export function planBase(occurredAt: string, now: Date): Date {
  const at = Date.parse(occurredAt);
  return new Date(Number.isFinite(at) ? Math.min(at, now.getTime()) : now.getTime());
}

export const firesOnSchedule = (s: DeploymentSnapshot): boolean => s.schedule !== null && s.status === 'active' && !s.archived;

/**
 * Decides how a deployment snapshot changes the due row. A replanned row waits for the first
 * occurrence after `base` (when the change happened, not when the scheduler heard of it), so
 * a late event still leads to the occurrences it should, subject to the misfire rule.
 * Occurrences missed while paused are never fired: unpausing plans from the unpause instant.
 */
export function planSnapshotChange(
  snapshot: DeploymentSnapshot,
  stored: StoredSchedule | undefined,
  context: { base: Date; jitterMs: number; schedules: ScheduleCache },
): SnapshotChange {
  if (stored && snapshot.revision <= stored.revision) return { kind: 'stale' };
  const active = firesOnSchedule(snapshot);
  const schedule = snapshot.schedule;
  if (
    stored?.active &&
    active &&
    stored.expression === schedule?.expression &&
    stored.timezone === schedule?.timezone
  ) {
    return { kind: 'keep_timing' };
  }
  if (!active || !schedule) return { kind: 'replan', active: false, schedule, next: null };
  let next: PlannedFire | null;
  try {
    next = nextFireAfter(context.schedules.get(schedule), context.jitterMs, context.base);
  } catch (err) {
    // The deployments service validated it, so this runtime's cron or zone data disagrees.
    return { kind: 'replan', active: false, schedule, next: null, invalid: (err as Error).message };
  }
  return { kind: 'replan', active: next !== null, schedule, next };
}
