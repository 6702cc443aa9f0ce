import type { EventEnvelope } from '@shared/bus/event';
import { scheduleJitterMs } from '@shared/cron';
import type { Database } from '@shared/db/connect';
import type { Logger } from '@shared/log/logger';
import type { DeploymentSnapshot } from '@shared/schema/deployment-events';
import type { Clock } from '@shared/time/clock';
import { findScheduleForUpdate, storeSnapshotChange } from '../db/deployment-schedules';
import type { ScheduleCache } from '@shared/cron/schedule-cache';
import { planSnapshotChange, type SnapshotChange } from '../domain/snapshot-change';

export interface ApplySnapshotDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  schedules: ScheduleCache;
  jitterMaxMs: number;
}

/**
 * Keeps the due table in step with deployment events. Idempotent: under the row lock a
 * snapshot applies only if its revision is newer than the stored one, so redeliveries and
 * reordered events change nothing. Resolves after commit (the consumer acks then).
 */
export function applyDeploymentSnapshot(deps: ApplySnapshotDeps) {
  return async (event: EventEnvelope<DeploymentSnapshot>): Promise<SnapshotChange['kind']> => {
    const snapshot = event.data;
    const now = deps.clock.now();
    const occurredAt = Date.parse(event.occurred_at);
    // Plan from when the change happened; a clock skewed ahead of ours counts as now.
    const base = new Date(Number.isFinite(occurredAt) ? Math.min(occurredAt, now.getTime()) : now.getTime());
    const change = await deps.db.transaction(async (tx) => {
      const stored = await findScheduleForUpdate(tx, snapshot.deployment_id);
      const change = planSnapshotChange(snapshot, stored, {
        base,
        jitterMs: scheduleJitterMs(snapshot.deployment_id, deps.jitterMaxMs),
        schedules: deps.schedules,
      });
      if (change.kind !== 'stale') await storeSnapshotChange(tx, snapshot, stored, change, now);
      return change;
    });
    if (change.kind === 'replan' && change.invalid) {
      deps.logger.error('deployment schedule cannot be evaluated; not scheduled', {
        deployment_id: snapshot.deployment_id,
        organization_id: snapshot.organization_id,
        reason: change.invalid,
      });
    }
    deps.logger.debug('deployment snapshot', {
      deployment_id: snapshot.deployment_id,
      revision: snapshot.revision,
      event: event.type,
      change: change.kind,
    });
    return change.kind;
  };
}
