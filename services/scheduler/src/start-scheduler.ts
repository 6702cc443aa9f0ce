import { join } from 'node:path';
import { createScheduleCache } from '@shared/cron';
import { startServiceHost, type StartOptions } from '@shared/service-host/service-host';
import type { SchedulerConfig } from './config';
import { createSchedulerMetrics } from './metrics';
import type { SchedulerDeps } from './deps';
import { startDueSchedules, subscribeDeploymentEvents } from './service';

export const SCHEDULER_MIGRATIONS = join(import.meta.dir, '..', 'migrations');

export async function startScheduler(config: SchedulerConfig, options: StartOptions = {}) {
  const host = await startServiceHost('scheduler', config, { database: { migrationsFolder: SCHEDULER_MIGRATIONS }, ...options });
  const metrics = createSchedulerMetrics(host.telemetry.registry);
  const deps: SchedulerDeps = {
    db: host.database.db,
    clock: host.clock,
    logger: host.logger,
    deployments: host.client,
    metrics,
    schedules: createScheduleCache(),
    config,
  };
  try {
    const consumer = await subscribeDeploymentEvents(deps, {
      nc: host.nc,
      prefix: config.BUS_PREFIX,
      durable: config.SCHEDULER_CONSUMER_NAME,
      telemetry: host.telemetry,
    });
    const dueSchedules = startDueSchedules(deps);
    // The round in flight settles before the bus drains; unacked events go back to the stream.
    host.onStop(() => dueSchedules.stop());
    host.onStop(() => consumer.stop());
  } catch (err) {
    await host.stop();
    throw err;
  }
  return host;
}
