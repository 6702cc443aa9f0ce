import { Type } from '@sinclair/typebox';
import { loadConfig, ServiceConfig } from '@shared/config/load-config';
import { MasterKeyConfig, parseMasterKeyRing } from '@shared/crypto/master-key-ring';
import { McpUrlConfig } from '@shared/agents/mcp-server-url';

export const DeploymentsConfigSchema = {
  ...ServiceConfig({ databaseName: 'agents_deployments', healthPort: 8081, outbox: true }),
  /** Wrap each deployment's data key, which seals its repository tokens. Required in production. */
  ...MasterKeyConfig,
  /**
   * Accept plain `http://` repository URLs (a private Git server without TLS). Off: a repository
   * token would otherwise travel in clear to whatever the URL names.
   */
  ALLOW_HTTP_REPOSITORY_URLS: Type.Boolean({ default: false }),
  /** What the MCP servers of a session's agent update may name (shared/agents/mcp-server-url.ts). */
  ...McpUrlConfig,
};

/** Parses the environment; a bad value (including the master keys) stops start-up naming it. */
export const loadDeploymentsConfig = (env: Record<string, string | undefined> = process.env) => {
  const raw = loadConfig(DeploymentsConfigSchema, env);
  return { ...raw, masterKeys: parseMasterKeyRing(raw) };
};
export type DeploymentsConfig = ReturnType<typeof loadDeploymentsConfig>;
