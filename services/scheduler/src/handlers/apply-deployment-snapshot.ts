import type { EventEnvelope } from '@shared/bus/event';
import { scheduleJitterMs } from '@shared/cron';
import type { DeploymentSnapshot } from '@shared/schema/deployment-events';
import { findSchedule, insertSchedule, insertScheduleUnlessStored, updateSchedule, type ScheduleInsert } from '../db/schedules';
import { planBase, planSnapshotChange, type SnapshotChange } from '../domain/snapshot-change';
import type { SchedulerDeps } from '../deps';

/**
 * Keeps the due table in step with deployment events. Idempotent: under the row lock a
 * snapshot applies only if its revision is newer than the stored one, so redeliveries and
 * reordered events change nothing. Resolves after commit (the consumer acks then).
 *
 * Events that cannot change any schedule are settled with less (most deployments have no
 * schedule, and every create, update, pause and archive of them reaches the scheduler):
 *
 * - Revision 1 without a schedule (the creation of an unscheduled deployment): nothing at all,
 *   no round trip. No older snapshot of the deployment exists, so none can arrive late and
 *   need this one to reject it; every later one has a higher revision and is applied on its
 *   own (with no row stored, the first of them is planned as the first snapshot, which is what
 *   this one would have left: an inactive row). A redelivery of it changes nothing either way.
 * - Revision 1 with a schedule: one INSERT that leaves an existing row alone (any stored row
 *   has revision >= 1, so this snapshot is stale against it), no transaction, no locked read.
 * - A later revision without a schedule: one unlocked read; without a row there is nothing to
 *   deactivate and the event is done. With a row, the locked path below. The one ordering this
 *   gives up: an OLDER snapshot with a schedule that arrives after this one (a reordered or
 *   redelivered event of a deployment whose schedule was since removed, that no replica had
 *   applied yet) finds no row and plans it, where a stored row at this revision would have
 *   rejected it. That costs at most one refused fire: the deployments service answers a fire
 *   from its own row ('unscheduled', 'paused', 'archived'), and the worker deactivates the row
 *   then (settle 'deactivate'). Nothing is ever fired that the deployments service would run.
 */
export const applyDeploymentSnapshot =
  (deps: SchedulerDeps) =>
  async (event: EventEnvelope<DeploymentSnapshot>): Promise<void> => {
    const snapshot = event.data;
    const now = deps.clock.now();
    if (snapshot.schedule === null) {
      if (snapshot.revision === 1 || !(await findSchedule(deps.db, snapshot.deployment_id))) {
        deps.logger.debug('deployment snapshot', { deployment_id: snapshot.deployment_id, revision: snapshot.revision, event: event.type, change: 'none' });
        return;
      }
    } else if (snapshot.revision === 1) {
      const change = planSnapshotChange(snapshot, undefined, planContext(deps, event, now));
      if (change.kind !== 'replan') throw new Error('a first snapshot is always a replan');
      await insertScheduleUnlessStored(deps.db, rowOf(snapshot, change, now));
      reportInvalid(deps, snapshot, change);
      return;
    }
    const change = await deps.db.transaction(async (tx) => {
      const stored = await findSchedule(tx, snapshot.deployment_id, { lock: true });
      const change = planSnapshotChange(snapshot, stored, planContext(deps, event, now));
      if (change.kind === 'stale') return change;
      const values = {
        organizationId: snapshot.organization_id,
        workspaceId: snapshot.workspace_id,
        revision: snapshot.revision,
        updatedAt: now,
        // A replan drops any claim, so a worker still firing the old plan cannot write its
        // result over the new one (its settle matches no row).
        ...(change.kind === 'replan' && replanColumns(change)),
      };
      // keep_timing needs a stored row, so a first snapshot is always a replan.
      if (stored) await updateSchedule(tx, snapshot.deployment_id, values);
      else await insertSchedule(tx, { active: false, ...values, deploymentId: snapshot.deployment_id });
      return change;
    });
    reportInvalid(deps, snapshot, change);
    deps.logger.debug('deployment snapshot', {
      deployment_id: snapshot.deployment_id,
      revision: snapshot.revision,
      event: event.type,
      change: change.kind,
    });
  };

const planContext = (deps: SchedulerDeps, event: EventEnvelope<DeploymentSnapshot>, now: Date) => ({
  base: planBase(event.occurred_at, now),
  jitterMs: scheduleJitterMs(event.data.deployment_id, deps.config.JITTER_MAX_MS),
  schedules: deps.schedules,
});

/** The whole row a replan stores, for a deployment without one. */
function rowOf(snapshot: DeploymentSnapshot, change: Extract<SnapshotChange, { kind: 'replan' }>, now: Date): ScheduleInsert {
  return {
    deploymentId: snapshot.deployment_id,
    organizationId: snapshot.organization_id,
    workspaceId: snapshot.workspace_id,
    revision: snapshot.revision,
    updatedAt: now,
    ...replanColumns(change),
  };
}

/** The plan a replan stores; with no claim, so a worker still firing the old plan settles nothing. */
const replanColumns = (change: Extract<SnapshotChange, { kind: 'replan' }>) => ({
  expression: change.schedule?.expression ?? null,
  timezone: change.schedule?.timezone ?? null,
  active: change.active,
  nextOccurrenceAt: change.next?.occurrence ?? null,
  nextFireAt: change.next?.fireAt ?? null,
  claimedBy: null,
  claimUntil: null,
});

function reportInvalid(deps: SchedulerDeps, snapshot: DeploymentSnapshot, change: SnapshotChange): void {
  if (change.kind === 'replan' && change.invalid) {
    deps.logger.error('deployment schedule cannot be evaluated; not scheduled', {
      deployment_id: snapshot.deployment_id,
      organization_id: snapshot.organization_id,
      reason: change.invalid,
    });
  }
}
