import { join } from 'node:path';
import { createScheduleCache } from '@shared/cron';
import type { Logger } from '@shared/log/logger';
import { startServiceHost } from '@shared/service-host/service-host';
import type { Clock } from '@shared/time/clock';
import type { SchedulerConfig } from './config';
import { createSchedulerMetrics } from './metrics';
import { startDueSchedules, subscribeDeploymentEvents, type SchedulerDeps } from './service';

export const SCHEDULER_MIGRATIONS = join(import.meta.dir, '..', 'migrations');

export async function startScheduler(config: SchedulerConfig, options: { clock?: Clock; logger?: Logger } = {}) {
  const runtime = await startServiceHost('scheduler', config, { migrationsFolder: SCHEDULER_MIGRATIONS, ...options });
  const metrics = createSchedulerMetrics(runtime.telemetry.registry);
  const deps: SchedulerDeps = {
    db: runtime.database.db,
    clock: runtime.clock,
    logger: runtime.logger,
    deployments: runtime.client,
    metrics,
    schedules: createScheduleCache(),
    config,
  };
  try {
    const consumer = await subscribeDeploymentEvents(deps, {
      nc: runtime.nc,
      prefix: config.BUS_PREFIX,
      durable: config.SCHEDULER_CONSUMER_NAME,
      telemetry: runtime.telemetry,
    });
    const dueSchedules = startDueSchedules(deps);
    // The round in flight settles before the bus drains; unacked events go back to the stream.
    runtime.onStop(() => dueSchedules.stop());
    runtime.onStop(() => consumer.stop());
  } catch (err) {
    await runtime.stop();
    throw err;
  }
  return runtime;
}
