import type { McpUrlRules } from '@shared/agents/mcp-server-url';
import type { MasterKeyRing } from '@shared/crypto/master-key-ring';
import type { Logger } from '@shared/log/logger';
import type { StoreDeps } from '@shared/service-host/store-deps';
import type { TokenEndpoint } from './clients/token-endpoint';

/** What every vaults handler is given, built once by start-vaults: the host's (`StoreDeps`: db, clock, eventsRecorded), and these. */
export interface VaultsDeps extends StoreDeps {
  keys: MasterKeyRing;
  /** `ALLOW_PRIVATE_MCP_URLS`: what a credential's `mcp_server_url` may name. */
  mcpUrls: McpUrlRules;
  logger: Logger;
  /** `mcp_oauth` credentials' token endpoints, for the refresh-token exchange. */
  tokenEndpoint: TokenEndpoint;
}
