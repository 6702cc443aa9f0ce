import type { BusClient } from '@shared/bus/bus-client';
import { systemContext } from '@shared/bus/call-context';
import { deploymentSubjects } from '@shared/bus/subjects/deployments';
import { scheduleJitterMs } from '@shared/cron';
import { ApiError } from '@shared/errors/api-error';
import { newId } from '@shared/ids/ids';
import type { Logger } from '@shared/log/logger';
import type { Clock } from '@shared/time/clock';
import type { ClaimedSchedule } from '../db/claim-due-schedules';
import type { Settlement } from '../db/settle-claims';
import type { ScheduleCache } from '@shared/cron/schedule-cache';
import { decideDueFire } from '../domain/misfire';
import type { SchedulerMetrics } from './scheduler-metrics';

export interface FireDeps {
  client: Pick<BusClient, 'call'>;
  clock: Clock;
  logger: Logger;
  metrics: SchedulerMetrics;
  schedules: ScheduleCache;
  jitterMaxMs: number;
  misfireWindowMs: number;
  retryMs: number;
}

export type FireResult = 'fired' | 'skipped' | 'misfired' | 'failed' | 'invalid' | 'not_due';

/**
 * Fires one claimed row and says how to leave it. The row only moves past an occurrence once
 * the deployments service has answered for it (fired, or skipped because the deployment no
 * longer fires on schedule); a bus error leaves the occurrence due for a retry. The fire is
 * idempotent per (deployment, scheduled_at) on the deployments side, so sending it again
 * after a crash or a lapsed lease records nothing twice.
 */
export async function fireClaimedSchedule(
  row: ClaimedSchedule,
  now: Date,
  deps: FireDeps,
): Promise<{ settlement: Settlement; result: FireResult; skippedMisfires: number }> {
  let decision;
  try {
    decision = decideDueFire({
      schedule: deps.schedules.get({ expression: row.expression!, timezone: row.timezone! }),
      listedOccurrence: row.nextOccurrenceAt,
      jitterMs: scheduleJitterMs(row.deploymentId, deps.jitterMaxMs),
      now,
      misfireWindowMs: deps.misfireWindowMs,
    });
  } catch (err) {
    deps.logger.error('schedule cannot be evaluated; deactivated', { deployment_id: row.deploymentId, error: err });
    return { settlement: { kind: 'deactivate' }, result: 'invalid', skippedMisfires: 0 };
  }
  const advance: Settlement = { kind: 'advance', next: decision.next };
  if (decision.skippedMisfires > 0) {
    deps.logger.warn('missed occurrences skipped', {
      deployment_id: row.deploymentId,
      skipped: decision.skippedMisfires,
      firing: decision.fire?.toISOString() ?? null,
    });
  }
  if (!decision.fire) {
    return { settlement: advance, result: decision.skippedMisfires > 0 ? 'misfired' : 'not_due', skippedMisfires: decision.skippedMisfires };
  }

  const requestId = newId('request');
  const tenant = { organization_id: row.organizationId, workspace_id: row.workspaceId, scope: 'read_write', key_id: 'scheduler' } as const;
  const firedAt = deps.clock.now();
  try {
    const reply = await deps.client.call(deploymentSubjects.fire, systemContext(requestId, tenant), {
      deployment_id: row.deploymentId,
      trigger: { type: 'schedule', scheduled_at: decision.fire.toISOString() },
    });
    if (reply.outcome === 'fired') {
      deps.metrics.countFire({ outcome: 'fired' });
      deps.metrics.observeFireLag((firedAt.getTime() - decision.fire.getTime()) / 1000);
      return { settlement: advance, result: 'fired', skippedMisfires: decision.skippedMisfires };
    }
    // The deployments service knows better than our copy; a newer snapshot reactivates the row.
    deps.metrics.countFire({ outcome: 'skipped', reason: reply.reason });
    return { settlement: { kind: 'deactivate' }, result: 'skipped', skippedMisfires: decision.skippedMisfires };
  } catch (err) {
    const reason = err instanceof ApiError ? err.type : 'api_error';
    deps.metrics.countFire({ outcome: 'failed', reason });
    deps.logger.warn('fire failed; will retry', {
      request_id: requestId,
      deployment_id: row.deploymentId,
      scheduled_at: decision.fire.toISOString(),
      error: err,
    });
    return {
      settlement: { kind: 'retry', retryAt: new Date(now.getTime() + deps.retryMs) },
      result: 'failed',
      skippedMisfires: 0,
    };
  }
}
