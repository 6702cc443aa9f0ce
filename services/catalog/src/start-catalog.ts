import { join } from 'node:path';
import { storeDeps, startBackendService, type StartOptions } from '@shared/service-host/start-backend-service';
import type { CatalogConfig } from './config';
import * as schema from './db/schema';
import { ModelCatalog } from './domain/model-catalog';
import { registerCatalogHandlers } from './service';

export const CATALOG_MIGRATIONS = join(import.meta.dir, '..', 'migrations');

export async function startCatalog(config: CatalogConfig, options: StartOptions = {}) {
  const models = ModelCatalog.fromJson(await Bun.file(config.MODEL_CATALOG_PATH).text());
  return startBackendService('catalog', config, { migrationsFolder: CATALOG_MIGRATIONS, schema }, options, (runtime) =>
    registerCatalogHandlers(runtime.server, { ...storeDeps(runtime), models, fileMaxBytes: config.FILE_MAX_BYTES, mcpUrls: { allowPrivate: config.ALLOW_PRIVATE_MCP_URLS } }),
  );
}
