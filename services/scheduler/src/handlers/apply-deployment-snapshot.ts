import type { EventEnvelope } from '@shared/bus/event';
import { scheduleJitterMs } from '@shared/cron';
import type { DeploymentSnapshot } from '@shared/schema/deployment-events';
import { findSchedule, insertSchedule, updateSchedule } from '../db/schedules';
import { planBase, planSnapshotChange } from '../domain/snapshot-change';
import type { SchedulerDeps } from '../service';

/**
 * Keeps the due table in step with deployment events. Idempotent: under the row lock a
 * snapshot applies only if its revision is newer than the stored one, so redeliveries and
 * reordered events change nothing. Resolves after commit (the consumer acks then).
 */
export const applyDeploymentSnapshot =
  (deps: SchedulerDeps) =>
  async (event: EventEnvelope<DeploymentSnapshot>): Promise<void> => {
    const snapshot = event.data;
    const now = deps.clock.now();
    const change = await deps.db.transaction(async (tx) => {
      const stored = await findSchedule(tx, snapshot.deployment_id, { lock: true });
      const change = planSnapshotChange(snapshot, stored, {
        base: planBase(event.occurred_at, now),
        jitterMs: scheduleJitterMs(snapshot.deployment_id, deps.config.JITTER_MAX_MS),
        schedules: deps.schedules,
      });
      if (change.kind === 'stale') return change;
      const values = {
        organizationId: snapshot.organization_id,
        workspaceId: snapshot.workspace_id,
        revision: snapshot.revision,
        updatedAt: now,
        // A replan drops any claim, so a worker still firing the old plan cannot write its
        // result over the new one (its settle matches no row).
        ...(change.kind === 'replan' && {
          expression: change.schedule?.expression ?? null,
          timezone: change.schedule?.timezone ?? null,
          active: change.active,
          nextOccurrenceAt: change.next?.occurrence ?? null,
          nextFireAt: change.next?.fireAt ?? null,
          claimedBy: null,
          claimUntil: null,
        }),
      };
      // keep_timing needs a stored row, so a first snapshot is always a replan.
      if (stored) await updateSchedule(tx, snapshot.deployment_id, values);
      else await insertSchedule(tx, { active: false, ...values, deploymentId: snapshot.deployment_id });
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
  };
