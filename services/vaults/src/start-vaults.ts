import { join } from 'node:path';
import { storeDeps, startBackendService, type StartOptions } from '@shared/service-host/start-backend-service';
import type { VaultsConfig } from './config';
import * as schema from './db/schema';
import { registerVaultHandlers } from './service';

export const VAULTS_MIGRATIONS = join(import.meta.dir, '..', 'migrations');

export async function startVaults(config: VaultsConfig, options: StartOptions = {}) {
  return startBackendService('vaults', config, { migrationsFolder: VAULTS_MIGRATIONS, schema }, options, (runtime) =>
    registerVaultHandlers(runtime.server, { ...storeDeps(runtime), keys: config.masterKeys, logger: runtime.logger, mcpUrls: { allowPrivate: config.ALLOW_PRIVATE_MCP_URLS } }),
  );
}
