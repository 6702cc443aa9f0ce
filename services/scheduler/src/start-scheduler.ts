import { join } from 'node:path';
import type { Logger } from '../../../shared/log/logger';
import { startServiceRuntime } from '../../../shared/runtime/service-runtime';
import type { Clock } from '../../../shared/time/clock';
import type { SchedulerConfig } from './config';
import { outbox } from './db/schema';


export const SCHEDULER_MIGRATIONS = join(import.meta.dir, '..', 'migrations');

export async function startScheduler(config: SchedulerConfig, options: { clock?: Clock; logger?: Logger } = {}) {
  const runtime = await startServiceRuntime('scheduler', config, {
    migrationsFolder: SCHEDULER_MIGRATIONS,
    outbox,
    ...options,
  });
  
  return runtime;
}
