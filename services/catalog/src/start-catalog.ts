import { join } from 'node:path';
import { startServiceHost, type StartOptions } from '@shared/service-host/service-host';
import { storeDeps } from '@shared/service-host/store-deps';
import type { CatalogConfig } from './config';
import * as schema from './db/schema';
import { ModelCatalog } from './domain/model-catalog';
import { registerCatalogHandlers } from './service';

export const CATALOG_MIGRATIONS = join(import.meta.dir, '..', 'migrations');

export async function startCatalog(config: CatalogConfig, options: StartOptions = {}) {
  const models = ModelCatalog.fromJson(await Bun.file(config.MODEL_CATALOG_PATH).text());
  const host = await startServiceHost('catalog', config, {
    database: { migrationsFolder: CATALOG_MIGRATIONS, outbox: schema },
    ...options,
  });
  registerCatalogHandlers(host.server, {
    ...storeDeps(host),
    models,
    fileMaxBytes: config.FILE_MAX_BYTES,
    mcpUrls: { allowPrivate: config.ALLOW_PRIVATE_MCP_URLS },
  });
  return host;
}
