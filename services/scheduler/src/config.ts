import { Type } from '@sinclair/typebox';
import { CommonConfig, DatabaseConfig, HealthConfig, loadConfig } from '../../../shared/config/load-config';

export const SchedulerConfigSchema = {
  ...CommonConfig,
  ...DatabaseConfig,
  ...HealthConfig(8084),
  DATABASE_NAME: Type.String({ pattern: '^[A-Za-z0-9_]{1,64}$', default: 'agents_scheduler' }),
};

export const loadSchedulerConfig = (env: Record<string, string | undefined> = process.env) =>
  loadConfig(SchedulerConfigSchema, env);
export type SchedulerConfig = ReturnType<typeof loadSchedulerConfig>;
