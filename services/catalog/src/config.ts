import { join } from 'node:path';
import { Type } from '@sinclair/typebox';
import { loadConfig, ServiceConfig } from '@shared/config/load-config';
import { McpUrlConfig } from '@shared/agents/mcp-server-url';

export const CatalogConfigSchema = {
  ...ServiceConfig({ databaseName: 'agents_catalog', healthPort: 8083, outbox: true }),
  /** The model catalog shipped with the product; operators may point at their own file. */
  MODEL_CATALOG_PATH: Type.String({ minLength: 1, default: join(import.meta.dir, '..', 'models.json') }),
  /** Largest file accepted by uploads (the gateway enforces the same figure first). */
  FILE_MAX_BYTES: Type.Integer({ minimum: 1, default: 32 * 1024 * 1024 }),
  /** What an agent's `mcp_servers` may name (shared/agents/mcp-server-url.ts). */
  ...McpUrlConfig,
};

export const loadCatalogConfig = (env: Record<string, string | undefined> = process.env) =>
  loadConfig(CatalogConfigSchema, env);
export type CatalogConfig = ReturnType<typeof loadCatalogConfig>;
