import { Type } from '@sinclair/typebox';
import { loadConfig, ServiceConfig } from '@shared/config/load-config';
import { MasterKeyConfig, parseMasterKeyRing } from '@shared/crypto/master-key-ring';
import { McpUrlConfig } from '@shared/agents/mcp-server-url';

export const VaultsConfigSchema = {
  ...ServiceConfig({ databaseName: 'agents_vaults', healthPort: 8082, outbox: true }),
  /**
   * MASTER_KEYS (`kid:base64-32-bytes,...`, every key still needed to unwrap) and MASTER_KEY_ID
   * (the one new data keys are wrapped with). Outside production a public development key is
   * used when unset; production refuses to start without them.
   */
  ...MasterKeyConfig,
  /** What a credential's `mcp_server_url` may name (shared/agents/mcp-server-url.ts). */
  ...McpUrlConfig,
  /**
   * Token endpoints of `mcp_oauth` credentials the vaults service may reach although they are
   * private, loopback or link-local, or plain http:// (an authorization server inside the
   * operator's network, a test's on loopback): a comma list of `host` or `host:port`. Empty: none.
   */
  OAUTH_REFRESH_ALLOW_PRIVATE_HOSTS: Type.String({ default: '' }),
  /** Longest one refresh-token exchange may take (the credential's vault stays locked meanwhile). */
  OAUTH_REFRESH_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60000, default: 10000 }),
  /** Data keys re-wrapped per transaction by `rewrap-data-keys`. */
  REWRAP_BATCH_SIZE: Type.Integer({ minimum: 1, maximum: 10000, default: 100 }),
};

/** Parsed at start: a bad key ring stops the process with a message naming the variable. */
export function loadVaultsConfig(env: Record<string, string | undefined> = process.env) {
  const raw = loadConfig(VaultsConfigSchema, env);
  return { ...raw, masterKeys: parseMasterKeyRing(raw) };
}
export type VaultsConfig = ReturnType<typeof loadVaultsConfig>;
