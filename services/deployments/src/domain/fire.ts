import type { FireDeploymentReply, RunError, TriggerContext } from '@shared/schema/deployment-run';
import { PAUSING_RUN_ERRORS } from '@shared/schema/deployment-run';
import type { DeploymentRow, DeploymentRunRow } from '../db/schema';
import { archivedRefusal } from './lifecycle';
import { deploymentNotFound } from './not-found';
import { presentDeploymentRun } from './present';
import { nextOccurrenceAfter, scheduleOf } from './schedule';

export type SkipReason = 'paused' | 'archived' | 'not_found' | 'unscheduled';

/**
 * Whether a scheduled fire may go ahead. Answered from the deployments service's own row, not
 * the scheduler's copy, so a pause, archive or schedule change committed a moment ago wins over
 * a scheduler that has not seen its event yet. An occurrence the current schedule does not have
 * (the schedule changed since the scheduler planned it) is not fired either.
 */
export function scheduledFireRefusal(row: DeploymentRow | undefined, scheduledAt: Date): SkipReason | null {
  if (!row) return 'not_found';
  if (row.archivedAt) return 'archived';
  if (row.status === 'paused') return 'paused';
  const schedule = scheduleOf(row);
  if (!schedule) return 'unscheduled';
  const occurrence = nextOccurrenceAfter(schedule, new Date(scheduledAt.getTime() - 1));
  if (!occurrence || occurrence.getTime() !== scheduledAt.getTime()) return 'unscheduled';
  return null;
}

/**
 * Only a scheduled fire pauses its deployment, and only for the interface's paused-reason
 * kinds. A manual run reports its error to the caller, who is there to act on it; pausing the
 * schedule because of it would be a surprise.
 */
export function pausesDeployment(trigger: TriggerContext, error: RunError | null): error is RunError & { type: (typeof PAUSING_RUN_ERRORS)[number] } {
  return trigger.type === 'schedule' && error !== null && (PAUSING_RUN_ERRORS as readonly string[]).includes(error.type);
}

/** The run a fire records: with the session it created, or with the error that prevented one. */
export function newRun(
  row: DeploymentRow,
  ids: { run: string; session: string | null },
  trigger: TriggerContext,
  scheduledAt: Date | null,
  error: RunError | null,
  now: Date,
): DeploymentRunRow {
  return {
    id: ids.run,
    organizationId: row.organizationId,
    workspaceId: row.workspaceId,
    deploymentId: row.id,
    agentId: row.agentId,
    agentVersion: row.agentVersion,
    triggerType: trigger.type,
    scheduledAt,
    sessionId: ids.session,
    errorType: error?.type ?? null,
    errorMessage: error?.message ?? null,
    createdAt: now,
  };
}

/** A fire's answer when its run is recorded (now, or before: the occurrence's idempotent answer). */
export const firedReply = (run: DeploymentRunRow): FireDeploymentReply => ({ outcome: 'fired', run: presentDeploymentRun(run) });

/**
 * Why the deployment's row ends a fire before anything is recorded: a scheduled fire's skip, or
 * a manual run's error (missing: 404; archived: refused; paused is fine). Asked of the row read
 * first, and again of the row locked for the write if it changed meanwhile.
 */
export function fireRefusal(row: DeploymentRow | undefined, id: string, scheduledAt: Date | null): FireDeploymentReply | undefined {
  if (scheduledAt) {
    const reason = scheduledFireRefusal(row, scheduledAt);
    return reason ? { outcome: 'skipped', reason } : undefined;
  }
  if (!row) throw deploymentNotFound(id);
  if (row.archivedAt) throw archivedRefusal(id, 'run');
  return undefined;
}
