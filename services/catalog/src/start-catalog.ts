import { join } from 'node:path';
import type { Logger } from '@shared/log/logger';
import { startServiceRuntime } from '@shared/runtime/service-runtime';
import type { Clock } from '@shared/time/clock';
import type { CatalogConfig } from './config';
import { outbox, outboxDeadLetters } from './db/schema';
import { ModelCatalog } from './domain/model-catalog';
import { registerCatalogHandlers } from './service';

export const CATALOG_MIGRATIONS = join(import.meta.dir, '..', 'migrations');

export async function startCatalog(config: CatalogConfig, options: { clock?: Clock; logger?: Logger } = {}) {
  const models = await ModelCatalog.fromFile(config.MODEL_CATALOG_PATH);
  const runtime = await startServiceRuntime('catalog', config, {
    migrationsFolder: CATALOG_MIGRATIONS,
    outbox: { outbox, deadLetters: outboxDeadLetters },
    ...options,
  });
  registerCatalogHandlers(runtime.server, {
    db: runtime.database.db,
    clock: runtime.clock,
    models,
    eventsRecorded: () => runtime.relay?.poke(),
    fileMaxBytes: config.FILE_MAX_BYTES,
  });
  return runtime;
}
