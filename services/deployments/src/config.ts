import { Type } from '@sinclair/typebox';
import { CommonConfig, DatabaseConfig, HealthConfig, loadConfig } from '../../../shared/config/load-config';

export const DeploymentsConfigSchema = {
  ...CommonConfig,
  ...DatabaseConfig,
  ...HealthConfig(8081),
  DATABASE_NAME: Type.String({ pattern: '^[A-Za-z0-9_]{1,64}$', default: 'agents_deployments' }),
};

export const loadDeploymentsConfig = (env: Record<string, string | undefined> = process.env) =>
  loadConfig(DeploymentsConfigSchema, env);
export type DeploymentsConfig = ReturnType<typeof loadDeploymentsConfig>;
