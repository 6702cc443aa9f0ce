import type { NatsConnection } from '@nats-io/transport-node';
import type { Telemetry } from '@shared/telemetry/telemetry';
import { startEventConsumer, type EventConsumer } from '@shared/bus/event-consumer';
import { SCHEDULE_CHANGING_SUBJECTS, scheduleChangingEvents } from '@shared/schema/deployment-events';
import { startDueTimer, type DueTimer } from './due-timer';
import { applyDeploymentSnapshot } from './handlers/apply-deployment-snapshot';
import { fireDueSchedules } from './handlers/fire-due-schedules';
import { measureDueBacklog } from './handlers/measure-due-backlog';
import type { SchedulerDeps } from './deps';

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
