import { join } from 'node:path';
import type { Logger } from '@shared/log/logger';
import { startServiceRuntime } from '@shared/runtime/service-runtime';
import type { Clock } from '@shared/time/clock';
import type { VaultsConfig } from './config';
import { outbox, outboxDeadLetters } from './db/schema';
import { registerVaultHandlers } from './service';

export const VAULTS_MIGRATIONS = join(import.meta.dir, '..', 'migrations');

export async function startVaults(config: VaultsConfig, options: { clock?: Clock; logger?: Logger } = {}) {
  const runtime = await startServiceRuntime('vaults', config, {
    migrationsFolder: VAULTS_MIGRATIONS,
    outbox: { outbox, deadLetters: outboxDeadLetters },
    ...options,
  });
  registerVaultHandlers(runtime.server, {
    db: runtime.database.db,
    clock: runtime.clock,
    keys: config.masterKeys,
    logger: runtime.logger,
    eventsRecorded: () => runtime.relay?.poke(),
  });
  return runtime;
}
