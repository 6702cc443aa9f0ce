import { Type } from '@sinclair/typebox';
import { CommonConfig, DatabaseConfig, HealthConfig, loadConfig } from '../../../shared/config/load-config';

export const VaultsConfigSchema = {
  ...CommonConfig,
  ...DatabaseConfig,
  ...HealthConfig(8082),
  DATABASE_NAME: Type.String({ pattern: '^[A-Za-z0-9_]{1,64}$', default: 'agents_vaults' }),
};

export const loadVaultsConfig = (env: Record<string, string | undefined> = process.env) =>
  loadConfig(VaultsConfigSchema, env);
export type VaultsConfig = ReturnType<typeof loadVaultsConfig>;
