import { join } from 'node:path';
import { runtimeDeps, startBackendService, type StartOptions } from '@shared/runtime/start-backend-service';
import { followCatalogEvents, ReferenceCache } from './clients/reference-cache';
import type { DeploymentsConfig } from './config';
import * as schema from './db/schema';
import { registerDeploymentHandlers } from './service';

export const DEPLOYMENTS_MIGRATIONS = join(import.meta.dir, '..', 'migrations');

export async function startDeployments(config: DeploymentsConfig, options: StartOptions = {}) {
  return startBackendService('deployments', config, { migrationsFolder: DEPLOYMENTS_MIGRATIONS, schema }, options, (runtime) => {
    // One reference cache per replica, kept current by the catalog's events it follows.
    const cache = new ReferenceCache(runtime.clock);
    const follower = followCatalogEvents({ nc: runtime.nc, prefix: config.BUS_PREFIX, cache, logger: runtime.logger });
    runtime.onStop(() => follower.stop());
    registerDeploymentHandlers(runtime.server, {
      ...runtimeDeps(runtime),
      bus: { client: runtime.client, cache },
      masterKeys: config.masterKeys,
      repositoryUrls: { allowHttpUrls: config.ALLOW_HTTP_REPOSITORY_URLS },
    });
  });
}
