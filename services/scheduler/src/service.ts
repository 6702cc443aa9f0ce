import type { NatsConnection } from '@nats-io/transport-node';
import type { Telemetry } from '@shared/telemetry/telemetry';
import { startEventConsumer, type EventConsumer } from '@shared/bus/event-consumer';
import type { ScheduleCache } from '@shared/cron';
import type { Database } from '@shared/db/connect';
import type { Logger } from '@shared/log/logger';
import { SCHEDULE_CHANGING_SUBJECTS, scheduleChangingEvents } from '@shared/schema/deployment-events';
import type { Clock } from '@shared/time/clock';
import type { DeploymentsBus } from './clients/deployments';
import type { SchedulerConfig } from './config';
import { startDueTimer, type DueTimer } from './due-timer';
import { applyDeploymentSnapshot } from './handlers/apply-deployment-snapshot';
import { fireDueSchedules, type WaitUntil } from './handlers/fire-due-schedules';
import { measureDueBacklog } from './handlers/measure-due-backlog';
import type { SchedulerMetrics } from './metrics';

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

/** Where the deployment events come from: the durable consumer every replica shares. */
export interface DeploymentEventSource {
  nc: NatsConnection;
  prefix: string;
  durable: string;
  /** The service's traces (each handled event a span linked to the trace that published it). */
  telemetry?: Telemetry;
}

/**
 * Deployment events that can change a schedule (each carries the deployment's snapshot) ->
 * applyDeploymentSnapshot. The creation of an unscheduled deployment is not among them: it is
 * published one subject token deeper, outside the filter, and never delivered here.
 */
export const subscribeDeploymentEvents = (deps: SchedulerDeps, source: DeploymentEventSource): Promise<EventConsumer> =>
  startEventConsumer({
    ...source,
    events: scheduleChangingEvents,
    filterSubject: SCHEDULE_CHANGING_SUBJECTS,
    logger: deps.logger,
    handler: applyDeploymentSnapshot(deps),
  });

/** The due-schedule timer -> fireDueSchedules (one round a tick), and measureDueBacklog now and then. */
export const startDueSchedules = (deps: SchedulerDeps): DueTimer =>
  startDueTimer(deps, { round: fireDueSchedules(deps), measureBacklog: measureDueBacklog(deps) });
