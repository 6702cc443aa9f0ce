import { scheduleJitterMs } from '@shared/cron';
import { ApiError } from '@shared/errors/api-error';
import { newId, randomBase62 } from '@shared/ids/ids';
import type { Logger } from '@shared/log/logger';
import { fireScheduledOccurrence } from '../clients/deployments';
import { claimDueSchedules, type ClaimedSchedule } from '../db/claim-due-schedules';
import { settleClaims, type Settlement } from '../db/settle-claims';
import { decideDueFire } from '../domain/misfire';
import type { SchedulerDeps, WaitUntil } from '../deps';

export type FireResult = 'fired' | 'skipped' | 'misfired' | 'failed' | 'invalid' | 'not_due';

/** What one round did: rows claimed, rows still held when it settled, and each row's result. */
export type RoundSummary = { claimed: number; held: number } & Record<FireResult, number>;

export interface RoundOptions {
  /**
   * Told how many rows the round claimed, before any of them is fired: the due timer claims the
   * next batch then, while this round's rows wait for their fire times and their replies.
   */
  onClaimed?: (claimed: number) => void;
}

/** The system one: a timer for the time left on the clock (none when it has passed). */
export const waitOnClock =
  (clock: { now(): Date }): WaitUntil =>
  (at) => {
    const ms = at.getTime() - clock.now().getTime();
    return ms > 0 ? Bun.sleep(ms) : Promise.resolve();
  };

/**
 * One round of the scheduler's worker: claims a batch of rows due within the lookahead
 * (SCHEDULER_LOOKAHEAD_MS; 0 = due now), fires each through the bus at its own fire time
 * (never before: the due decision is taken when the row's turn comes, on the clock of that
 * moment), settles the batch once every fire has been answered. Any number of workers (in one process
 * or many) can share a database; claims keep them apart. The due-schedule timer runs rounds;
 * tests run them by hand after moving a ManualClock.
 *
 * Why each (deployment, occurrence) gets exactly one run, whatever crashes:
 * - A row leaves an occurrence only in the settle transaction, after the deployments service
 *   answered for it (fired or skipped). Until then the occurrence stays in the row: a crash
 *   before the claim commits is rolled back by the database; a crash after it leaves a lease
 *   that lapses (SCHEDULER_LEASE_MS), and another worker fires the same occurrence again.
 *   So every due occurrence is fired at least once.
 * - No row lock is held across the bus call; the lease keeps other workers off instead, and
 *   settling matches the claim token, so a worker whose lease lapsed cannot overwrite the
 *   newer state (a re-claim or a snapshot replan).
 * - The fire is idempotent per (deployment_id, scheduled_at) on the deployments side (unique
 *   key): the at-least-once sends above record one run.
 */
export const fireDueSchedules = (deps: SchedulerDeps) => {
  const { db, clock, config } = deps;
  const logger = deps.logger.child({ worker: config.SCHEDULER_WORKER_ID });
  // Claim tokens are unique per claim, so a restarted worker never mistakes an old claim for its own.
  const instance = randomBase62(8);
  let claimCount = 0;

  const waitUntil = deps.waitUntil ?? waitOnClock(clock);
  const tenantSlots = createTenantSlots(TENANT_FIRES_IN_FLIGHT);

  return async (options: RoundOptions = {}): Promise<RoundSummary> => {
    const now = clock.now();
    const token = `${config.SCHEDULER_WORKER_ID}:${instance}:${++claimCount}`;
    const rows = await claimDueSchedules(db, {
      token,
      now,
      dueBy: new Date(now.getTime() + config.SCHEDULER_LOOKAHEAD_MS),
      leaseMs: config.SCHEDULER_LEASE_MS,
      limit: config.SCHEDULER_BATCH_SIZE,
    });
    options.onClaimed?.(rows.length);
    const summary: RoundSummary = { claimed: rows.length, held: 0, fired: 0, skipped: 0, misfired: 0, failed: 0, invalid: 0, not_due: 0 };
    if (rows.length === 0) return summary;
    // Rows claimed ahead wait for their fire time; the decision uses the clock of that moment,
    // so a row woken early (a clock step back) is simply not due and keeps its occurrence.
    const outcomes = await Promise.all(
      rows.map(async (row) => {
        await waitUntil(row.nextFireAt);
        return tenantSlots.run(`${row.organizationId}\u0000${row.workspaceId}`, () => fireClaimedSchedule(deps, logger, row, clock.now()));
      }),
    );
    summary.held = await settleClaims(
      db,
      token,
      outcomes.map((o, i) => ({ deploymentId: rows[i]!.deploymentId, settlement: o.settlement })),
      clock.now(),
    );
    for (const o of outcomes) {
      summary[o.result] += 1;
      deps.metrics.countSkippedMisfires(o.skippedMisfires);
    }
    if (summary.held < rows.length) {
      // A snapshot replanned the row meanwhile, or the lease lapsed and another worker took it.
      logger.info('claims lost before settling', { claimed: rows.length, held: summary.held });
    }
    return summary;
  };
};

/**
 * Fires of one tenant a worker has in flight at once; the tenant's other due fires wait in the
 * worker (claimed and leased, the wait bounded by the rounds in flight) instead of crowding the
 * deployments service's bulkhead for that tenant (TENANT_MAX_CONCURRENCY in progress, 200
 * queued, refused after half the bus timeout). A burst of one tenant's fires (hundreds of rows
 * due at once) used to overflow it: 429, a retry after SCHEDULER_RETRY_MS, a minute behind.
 * Three workers x 8 stays within the default bulkhead's slots plus its queue.
 */
const TENANT_FIRES_IN_FLIGHT = 8;

/** At most `limit` calls per key at once; the others wait in order. */
function createTenantSlots(limit: number) {
  const lanes = new Map<string, { active: number; waiting: Array<() => void> }>();
  return {
    async run<T>(key: string, call: () => Promise<T>): Promise<T> {
      let lane = lanes.get(key);
      if (!lane) lanes.set(key, (lane = { active: 0, waiting: [] }));
      if (lane.active >= limit) await new Promise<void>((admit) => lane!.waiting.push(admit));
      else lane.active += 1;
      try {
        return await call();
      } finally {
        const next = lane.waiting.shift();
        // The slot passes to the next waiter as it is; the last one out forgets the tenant.
        if (next) next();
        else if (--lane.active === 0) lanes.delete(key);
      }
    },
  };
}

/**
 * Fires one claimed row and says how to leave it. The row only moves past an occurrence once
 * the deployments service has answered for it (fired, or skipped because the deployment no
 * longer fires on schedule); a bus error leaves the occurrence due for a retry.
 */
async function fireClaimedSchedule(
  deps: SchedulerDeps,
  logger: Logger,
  row: ClaimedSchedule,
  now: Date,
): Promise<{ settlement: Settlement; result: FireResult; skippedMisfires: number }> {
  let decision;
  try {
    decision = decideDueFire({
      schedule: deps.schedules.get({ expression: row.expression!, timezone: row.timezone! }),
      listedOccurrence: row.nextOccurrenceAt,
      jitterMs: scheduleJitterMs(row.deploymentId, deps.config.JITTER_MAX_MS),
      now,
      misfireWindowMs: deps.config.MISFIRE_WINDOW_MS,
    });
  } catch (err) {
    logger.error('schedule cannot be evaluated; deactivated', { deployment_id: row.deploymentId, error: err });
    return { settlement: { kind: 'deactivate' }, result: 'invalid', skippedMisfires: 0 };
  }
  const advance: Settlement = { kind: 'advance', next: decision.next };
  if (decision.skippedMisfires > 0) {
    logger.warn('missed occurrences skipped', {
      deployment_id: row.deploymentId,
      skipped: decision.skippedMisfires,
      firing: decision.fire?.toISOString() ?? null,
    });
  }
  if (!decision.fire) {
    return { settlement: advance, result: decision.skippedMisfires > 0 ? 'misfired' : 'not_due', skippedMisfires: decision.skippedMisfires };
  }

  const requestId = newId('request');
  const firedAt = deps.clock.now();
  try {
    const reply = await fireScheduledOccurrence(deps.deployments, requestId, row, decision.fire);
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
    logger.warn('fire failed; will retry', {
      request_id: requestId,
      deployment_id: row.deploymentId,
      scheduled_at: decision.fire.toISOString(),
      error: err,
    });
    return {
      settlement: { kind: 'retry', retryAt: new Date(now.getTime() + deps.config.SCHEDULER_RETRY_MS) },
      result: 'failed',
      skippedMisfires: 0,
    };
  }
}
