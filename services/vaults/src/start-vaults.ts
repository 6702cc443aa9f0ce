import { join } from 'node:path';
import { startServiceHost, type StartOptions } from '@shared/service-host/service-host';
import { storeDeps } from '@shared/service-host/store-deps';
import type { VaultsConfig } from './config';
import * as schema from './db/schema';
import { registerVaultHandlers } from './service';
import { parseAllowedHosts } from '@shared/agents/mcp-hosts';
import { tokenEndpoint } from './clients/token-endpoint';

export const VAULTS_MIGRATIONS = join(import.meta.dir, '..', 'migrations');

export async function startVaults(config: VaultsConfig, options: StartOptions = {}) {
  const host = await startServiceHost('vaults', config, {
    database: { migrationsFolder: VAULTS_MIGRATIONS, outbox: schema },
    ...options,
  });
  registerVaultHandlers(host.server, {
    ...storeDeps(host),
    keys: config.masterKeys,
    logger: host.logger,
    mcpUrls: { allowPrivate: config.ALLOW_PRIVATE_MCP_URLS },
    tokenEndpoint: tokenEndpoint({ allowedPrivateHosts: parseAllowedHosts(config.OAUTH_REFRESH_ALLOW_PRIVATE_HOSTS), timeoutMs: config.OAUTH_REFRESH_TIMEOUT_MS }),
  });
  return host;
}
