import { join } from 'node:path';
import type { Logger } from '@shared/log/logger';
import { startServiceRuntime } from '@shared/runtime/service-runtime';
import type { Clock } from '@shared/time/clock';
import type { DeploymentsConfig } from './config';
import { outbox, outboxDeadLetters } from './db/schema';
import { registerDeploymentHandlers, type DeploymentsDeps } from './service';

export const DEPLOYMENTS_MIGRATIONS = join(import.meta.dir, '..', 'migrations');

export async function startDeployments(config: DeploymentsConfig, options: { clock?: Clock; logger?: Logger } = {}) {
  const runtime = await startServiceRuntime('deployments', config, {
    migrationsFolder: DEPLOYMENTS_MIGRATIONS,
    outbox: { outbox, deadLetters: outboxDeadLetters },
    ...options,
  });
  const deps: DeploymentsDeps = {
    db: runtime.database.db,
    clock: runtime.clock,
    bus: runtime.client,
    masterKeys: config.masterKeys,
    repositoryUrls: { allowHttpUrls: config.ALLOW_HTTP_REPOSITORY_URLS },
    relay: runtime.relay,
  };
  registerDeploymentHandlers(runtime.server, deps);
  return runtime;
}
