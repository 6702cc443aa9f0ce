import type { ScheduleCache } from '@shared/cron';
import type { Database } from '@shared/db/connect';
import type { Logger } from '@shared/log/logger';
import type { Clock } from '@shared/time/clock';
import type { DeploymentsBus } from './clients/deployments';
import type { SchedulerConfig } from './config';
import type { SchedulerMetrics } from './metrics';

/** Resolves once the clock reads `at` or later; tests inject one that moves a ManualClock. */
export type WaitUntil = (at: Date) => Promise<void>;

/** What the scheduler's handlers are given, built once by start-scheduler.ts. */
export interface SchedulerDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  /** The bus client the deployments service's fire subject is called through. */
  deployments: DeploymentsBus;
  metrics: SchedulerMetrics;
  schedules: ScheduleCache;
  /** How a row claimed ahead waits for its fire time; default: a timer on `clock` (waitOnClock). */
  waitUntil?: WaitUntil;
  config: Pick<
    SchedulerConfig,
    | 'SCHEDULER_BATCH_SIZE'
    | 'SCHEDULER_POLL_MS'
    | 'SCHEDULER_LOOKAHEAD_MS'
    | 'SCHEDULER_LEASE_MS'
    | 'SCHEDULER_RETRY_MS'
    | 'MISFIRE_WINDOW_MS'
    | 'JITTER_MAX_MS'
    | 'SCHEDULER_WORKER_ID'
  >;
}
