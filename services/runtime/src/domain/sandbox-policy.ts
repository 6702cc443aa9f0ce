import type { EnvironmentConfig } from '@shared/schema/environment';
import type { SandboxPolicy } from '@shared/schema/sandbox-policy';
import type { Session } from '@shared/schema/session';

/**
 * The most a sandbox lets a session do when what it should let is unknown (the environment was
 * deleted, or is no longer a cloud one, between the item's queueing and its claim): nothing out
 * but the gateway, nothing installed. Erring closed: a session held too tightly shows it in its
 * tools' errors; one let out too far would not.
 */
export const LOCKED_DOWN: SandboxPolicy = {
  networking: { type: 'limited', allowed_hosts: [], allow_package_managers: false, allow_mcp_servers: false },
  packages: { type: 'packages', apt: [], cargo: [], gem: [], go: [], npm: [], pip: [] },
  mcp_server_urls: [],
};

/** What a claimed item's sandbox enforces: its environment's networking and packages, and its agent's MCP servers. */
export function sandboxPolicy(config: EnvironmentConfig | undefined, session: Pick<Session, 'agent'> | undefined): SandboxPolicy {
  if (config?.type !== 'cloud') return LOCKED_DOWN;
  return {
    networking: config.networking,
    packages: config.packages,
    mcp_server_urls: (session?.agent.mcp_servers ?? []).map((server) => server.url),
  };
}
