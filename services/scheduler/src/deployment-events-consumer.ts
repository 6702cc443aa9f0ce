import type { NatsConnection } from '@nats-io/transport-node';
import { startEventConsumer, type EventConsumer } from '@shared/bus/event-consumer';
import type { Database } from '@shared/db/connect';
import type { Logger } from '@shared/log/logger';
import { deploymentEvents } from '@shared/schema/deployment-events';
import type { Clock } from '@shared/time/clock';
import type { ScheduleCache } from '@shared/cron/schedule-cache';
import { applyDeploymentSnapshot } from './handlers/apply-deployment-snapshot';

/** Wires every deployment event kind (they all carry a snapshot) to the due table. */
export function consumeDeploymentEvents(deps: {
  nc: NatsConnection;
  prefix: string;
  durable: string;
  db: Database;
  clock: Clock;
  logger: Logger;
  schedules: ScheduleCache;
  jitterMaxMs: number;
}): Promise<EventConsumer> {
  const apply = applyDeploymentSnapshot(deps);
  return startEventConsumer({
    nc: deps.nc,
    prefix: deps.prefix,
    events: Object.values(deploymentEvents),
    durable: deps.durable,
    filterSubject: 'deployments.>',
    logger: deps.logger,
    handler: async (event) => {
      await apply(event);
    },
  });
}
