import type { McpUrlRules } from '@shared/agents/mcp-server-url';
import type { StoreDeps } from '@shared/service-host/store-deps';
import type { ModelCatalog } from './domain/model-catalog';

/** What the catalog's handlers are given, built once by start-catalog: the host's (`StoreDeps`: db, clock, eventsRecorded), and these. */
export interface CatalogDeps extends StoreDeps {
  models: ModelCatalog;
  fileMaxBytes: number;
  /** `ALLOW_PRIVATE_MCP_URLS`: what an agent's MCP servers may name. */
  mcpUrls: McpUrlRules;
}
