import { join } from 'node:path';
import type { Logger } from '@shared/log/logger';
import { startServiceRuntime } from '@shared/runtime/service-runtime';
import type { Clock } from '@shared/time/clock';
import type { SchedulerConfig } from './config';
import { consumeDeploymentEvents } from './deployment-events-consumer';
import { createScheduleCache } from '@shared/cron/schedule-cache';
import { createSchedulerEngine } from './engine/scheduler-engine';
import { createSchedulerMetrics } from './engine/scheduler-metrics';

export const SCHEDULER_MIGRATIONS = join(import.meta.dir, '..', 'migrations');

export async function startScheduler(config: SchedulerConfig, options: { clock?: Clock; logger?: Logger } = {}) {
  const metrics = createSchedulerMetrics();
  const runtime = await startServiceRuntime('scheduler', config, {
    migrationsFolder: SCHEDULER_MIGRATIONS,
    metrics: () => metrics.render(),
    ...options,
  });
  const schedules = createScheduleCache();
  try {
    const consumer = await consumeDeploymentEvents({
      nc: runtime.nc,
      prefix: config.BUS_PREFIX,
      durable: config.SCHEDULER_CONSUMER_NAME,
      db: runtime.database.db,
      clock: runtime.clock,
      logger: runtime.logger,
      schedules,
      jitterMaxMs: config.JITTER_MAX_MS,
    });
    const engine = createSchedulerEngine({
      db: runtime.database.db,
      clock: runtime.clock,
      client: runtime.client,
      logger: runtime.logger,
      config,
      metrics,
      schedules,
    });
    engine.start();
    // The batch in flight settles before the bus drains; unacked events go back to the stream.
    runtime.onStop(() => engine.stop());
    runtime.onStop(() => consumer.stop());
  } catch (err) {
    await runtime.stop();
    throw err;
  }
  return runtime;
}
