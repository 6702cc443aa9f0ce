import { join } from 'node:path';
import { runtimeDeps, startBackendService, type StartOptions } from '@shared/runtime/start-backend-service';
import type { DeploymentsConfig } from './config';
import * as schema from './db/schema';
import { registerDeploymentHandlers } from './service';

export const DEPLOYMENTS_MIGRATIONS = join(import.meta.dir, '..', 'migrations');

export async function startDeployments(config: DeploymentsConfig, options: StartOptions = {}) {
  return startBackendService('deployments', config, { migrationsFolder: DEPLOYMENTS_MIGRATIONS, schema }, options, (runtime) =>
    registerDeploymentHandlers(runtime.server, {
      ...runtimeDeps(runtime),
      bus: runtime.client,
      masterKeys: config.masterKeys,
      repositoryUrls: { allowHttpUrls: config.ALLOW_HTTP_REPOSITORY_URLS },
    }),
  );
}
