import type { SandboxPolicy, SandboxSecret, SessionMounts } from '@shared/schema/sandbox-policy';
import { placeholderEnvironment, withPlaceholders } from '../domain/secret-substitution';
import { basicAuthorization } from '../domain/repository-clone';
import type { Work } from '@shared/schema/work';
import type { SandboxWorkerConfig } from '../config';
import { endpointOf, normalHost, type EgressScope, type Endpoint } from '../domain/egress-rules';
import { packagesEnvironment } from '../domain/package-installs';
import { INSIDE, insidePath, PROXY_PORT, proxyEnvironment } from '../domain/sandbox-layout';
import { sandboxEnvironment } from '../domain/sandbox-process';
import { startSandbox, type RunningSandbox, type SandboxHost, type SandboxSpec } from './sandbox';

export interface SessionSandboxSettings {
  config: Pick<SandboxWorkerConfig, 'SANDBOX_GATEWAY_URL' | 'SANDBOX_IDLE_MS' | 'SANDBOX_MAX_LIFETIME_MS'>;
  /** The bundled session program and the bun that runs it, both bound read-only into the sandbox. */
  program: string;
  bun: string;
  /** A repository's token as it is now (a rotation takes effect at the next request), for the proxy. */
  currentToken?: (repository: Endpoint) => Promise<string | undefined>;
}

/**
 * Starts a session's program in its sandbox: the SDK's worker for the one item, in /workspace,
 * the environment's packages (a cache directory, or none) at /opt/packages, the proxy that lets
 * out what the environment's networking says and the gateway.
 */
export function startSessionSandbox(
  host: SandboxHost,
  item: Work,
  policy: SandboxPolicy,
  packages: string | undefined,
  settings: SessionSandboxSettings,
  mounts: SessionMounts,
  secrets: readonly SandboxSecret[],
  prepare: SandboxSpec['prepare'],
): Promise<RunningSandbox> {
  const { config } = settings;
  const added = packages ? packagesEnvironment() : { bins: [], env: {} };
  const substitutions = withPlaceholders(secrets);
  const env = {
    // First: a credential named like a variable the session needs (PATH, HOME, ANTHROPIC_*) does not replace it.
    ...placeholderEnvironment(substitutions),
    ...sandboxEnvironment(item, { gatewayUrl: config.SANDBOX_GATEWAY_URL, path: insidePath(added.bins), scratch: INSIDE.workdir }),
    ...proxyEnvironment(),
    ...added.env,
    LANG: 'C.UTF-8',
  };
  return startSandbox(host, {
    scope: {
      networking: policy.networking,
      mcpHosts: policy.mcp_server_urls.flatMap(hostOf),
      gateway: endpointOf(config.SANDBOX_GATEWAY_URL),
      credentials: repositoryCredentials(mounts.repositories),
      substitutions,
    },
    env,
    command: [INSIDE.bun, INSIDE.program, '--idle-ms', String(config.SANDBOX_IDLE_MS), '--lifetime-ms', String(config.SANDBOX_MAX_LIFETIME_MS), '--proxy-port', String(PROXY_PORT)],
    readOnly: [
      { host: settings.bun, inside: INSIDE.bun },
      { host: settings.program, inside: INSIDE.program },
      ...(packages ? [{ host: packages, inside: INSIDE.packages }] : []),
    ],
    prepare,
    currentAuthorization: settings.currentToken,
  });
}

/**
 * The repositories' tokens as the proxy puts them into the agent's requests to their hosts and
 * ports (over HTTPS by intercepting those tunnels, clients/egress-proxy.ts).
 */
function repositoryCredentials(repositories: SessionMounts['repositories']): NonNullable<EgressScope['credentials']> {
  return repositories.flatMap((r) => {
    const url = new URL(r.url);
    if (!r.authorization_token) return [];
    return [{ ...endpointOf(r.url), authorization: basicAuthorization(r.authorization_token) }];
  });
}

function hostOf(url: string): string[] {
  try {
    return [normalHost(new URL(url).hostname)];
  } catch {
    return [];
  }
}
