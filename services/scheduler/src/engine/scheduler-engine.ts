import type { BusClient } from '@shared/bus/bus-client';
import type { Database } from '@shared/db/connect';
import { randomBase62 } from '@shared/ids/ids';
import type { Logger } from '@shared/log/logger';
import type { Clock } from '@shared/time/clock';
import type { SchedulerConfig } from '../config';
import { claimDueSchedules } from '../db/claim-due-schedules';
import { countDueSchedules } from '../db/count-due-schedules';
import { earliestFireAt } from '../db/earliest-fire-at';
import { settleClaims } from '../db/settle-claims';
import { createScheduleCache, type ScheduleCache } from '@shared/cron/schedule-cache';
import { fireClaimedSchedule, type FireResult } from './fire-claimed-schedule';
import { createSchedulerMetrics, type SchedulerMetrics } from './scheduler-metrics';

export type EngineConfig = Pick<
  SchedulerConfig,
  | 'SCHEDULER_BATCH_SIZE'
  | 'SCHEDULER_POLL_MS'
  | 'SCHEDULER_LEASE_MS'
  | 'SCHEDULER_RETRY_MS'
  | 'MISFIRE_WINDOW_MS'
  | 'JITTER_MAX_MS'
  | 'SCHEDULER_WORKER_ID'
>;

export interface SchedulerEngineOptions {
  db: Database;
  clock: Clock;
  client: Pick<BusClient, 'call'>;
  logger: Logger;
  config: EngineConfig;
  metrics?: SchedulerMetrics;
  schedules?: ScheduleCache;
}

export type TickSummary = { claimed: number; held: number } & Record<FireResult, number>;

const MAX_BACKOFF_MS = 30_000;
const BACKLOG_REFRESH_MS = 5_000;
const MIN_SLEEP_MS = 10;

/**
 * The scheduler's worker: claims due rows, fires them through the bus, advances them. Any
 * number of engines (in one process or many) can share a database; claims keep them apart.
 * Tests call `tick()` after moving a ManualClock; the process calls `start()`/`stop()`.
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
export function createSchedulerEngine(options: SchedulerEngineOptions) {
  const { db, clock, config } = options;
  const logger = options.logger.child({ worker: config.SCHEDULER_WORKER_ID });
  const metrics = options.metrics ?? createSchedulerMetrics();
  const fireDeps = {
    client: options.client,
    clock,
    logger,
    metrics,
    schedules: options.schedules ?? createScheduleCache(),
    jitterMaxMs: config.JITTER_MAX_MS,
    misfireWindowMs: config.MISFIRE_WINDOW_MS,
    retryMs: config.SCHEDULER_RETRY_MS,
  };
  // Claim tokens are unique per claim, so a restarted worker never mistakes an old claim for its own.
  const instance = randomBase62(8);
  let claimCount = 0;

  /** One round: claim a batch, fire it concurrently, settle it in one transaction. */
  async function tick(): Promise<TickSummary> {
    const now = clock.now();
    const token = `${config.SCHEDULER_WORKER_ID}:${instance}:${++claimCount}`;
    const rows = await claimDueSchedules(db, {
      token,
      now,
      leaseMs: config.SCHEDULER_LEASE_MS,
      limit: config.SCHEDULER_BATCH_SIZE,
    });
    const summary: TickSummary = { claimed: rows.length, held: 0, fired: 0, skipped: 0, misfired: 0, failed: 0, invalid: 0, not_due: 0 };
    if (rows.length === 0) return summary;
    const outcomes = await Promise.all(rows.map((row) => fireClaimedSchedule(row, now, fireDeps)));
    summary.held = await settleClaims(
      db,
      token,
      outcomes.map((o, i) => ({ deploymentId: rows[i]!.deploymentId, settlement: o.settlement })),
      clock.now(),
    );
    for (const o of outcomes) {
      summary[o.result] += 1;
      metrics.countSkippedMisfires(o.skippedMisfires);
    }
    if (summary.held < rows.length) {
      // A snapshot replanned the row meanwhile, or the lease lapsed and another worker took it.
      logger.info('claims lost before settling', { claimed: rows.length, held: summary.held });
    }
    return summary;
  }

  async function measureBacklog(): Promise<number> {
    const n = await countDueSchedules(db, clock.now());
    metrics.setDueBacklog(n);
    return n;
  }

  let stopped = true;
  let running: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  /** Sleep until the earliest row is due, never longer than the poll interval (new rows may come sooner). */
  async function untilNextDue(): Promise<number> {
    const next = await earliestFireAt(db);
    if (!next) return config.SCHEDULER_POLL_MS;
    // At least a few ms: a row still unclaimed-looking is being claimed by another worker right now.
    return Math.max(MIN_SLEEP_MS, Math.min(config.SCHEDULER_POLL_MS, next.getTime() - clock.now().getTime()));
  }

  async function loop(): Promise<void> {
    let failures = 0;
    let backlogAt = Number.NEGATIVE_INFINITY;
    while (!stopped) {
      let delay = config.SCHEDULER_POLL_MS;
      try {
        const summary = await tick();
        if (summary.failed > 0) failures += 1;
        else failures = 0;
        if (failures === 0 && summary.claimed === config.SCHEDULER_BATCH_SIZE) delay = 0;
        else if (failures === 0) delay = await untilNextDue();
      } catch (err) {
        failures += 1;
        logger.error('scheduler tick failed', { error: err });
      }
      // The deployments service or the database is in trouble: back off instead of hammering it.
      if (failures > 0) delay = Math.min(MAX_BACKOFF_MS, config.SCHEDULER_POLL_MS * 2 ** Math.min(failures, 10));
      if (performance.now() - backlogAt >= BACKLOG_REFRESH_MS) {
        backlogAt = performance.now();
        await measureBacklog().catch((err) => logger.warn('backlog measurement failed', { error: err }));
      }
      if (delay > 0 && !stopped) await sleep(delay);
    }
  }

  return {
    metrics,
    tick,
    measureBacklog,
    start(): void {
      if (!stopped) return;
      stopped = false;
      running = loop();
    },
    /** Finishes the batch in flight (its claims settle normally), then returns. */
    async stop(): Promise<void> {
      stopped = true;
      wake?.();
      await running;
    },
  };
}
export type SchedulerEngine = ReturnType<typeof createSchedulerEngine>;
