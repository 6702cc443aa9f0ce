import { BlockList, isIP } from 'node:net';
import type { SandboxSecret } from '@shared/schema/sandbox-policy';

/**
 * What a session's egress proxy lets out (clients/egress-proxy.ts asks, per connection): first by
 * name, as the environment's networking says, then by every address the name resolves to, which
 * no configuration opens when it is the product's own (loopback, link-local and cloud metadata,
 * this machine's addresses, the infrastructure named in SANDBOX_EGRESS_DENY_HOSTS). The proxy
 * connects to the address it checked, never resolving the name again, so a name cannot be made
 * to point elsewhere between the check and the connection.
 */

/** The environment's networking (SDK `BetaCloudConfig.networking`). */
export type Networking =
  | { type: 'unrestricted' }
  | { type: 'limited'; allowed_hosts: readonly string[]; allow_package_managers: boolean; allow_mcp_servers: boolean };

export interface EgressScope {
  networking: Networking;
  /** Hosts of the session's agent's MCP servers (let out under `limited` with allow_mcp_servers). */
  mcpHosts: readonly string[];
  /**
   * Credentials the proxy puts into the session's plain-HTTP requests to their host and port (a
   * repository's token, for the agent's fetches and pushes): the session never holds them.
   */
  credentials?: readonly (Endpoint & { authorization: string })[];
  /** The session's environment-variable credentials, substituted at egress (domain/secret-substitution.ts). */
  substitutions?: readonly (SandboxSecret & { placeholder: string })[];
  /** The gateway the session's SDK worker talks to: always let out, at its own port only (none for a package install). */
  gateway?: Endpoint;
}

export interface Endpoint {
  host: string;
  port: number;
}

export type Verdict = { allowed: true } | { allowed: false; reason: string };

/**
 * The registries the package managers of `packages` use (npm, pip, apt, cargo, gem, go), let out
 * under `limited` with allow_package_managers, and to the package installs themselves.
 */
export const PACKAGE_REGISTRIES: readonly string[] = [
  'registry.npmjs.org',
  'registry.yarnpkg.com',
  'pypi.org',
  'files.pythonhosted.org',
  'deb.debian.org',
  'security.debian.org',
  'archive.ubuntu.com',
  'security.ubuntu.com',
  'crates.io',
  'index.crates.io',
  'static.crates.io',
  'rubygems.org',
  'index.rubygems.org',
  'proxy.golang.org',
  'sum.golang.org',
];

/** A host name as compared: lower case, no trailing dot, no IPv6 brackets. */
export function normalHost(host: string): string {
  return host.trim().toLowerCase().replace(/\.$/, '').replace(/^\[(.*)\]$/, '$1');
}

/** `entry` names `host`: the same name, or `*.example.com` for any name below example.com. */
export function hostMatches(entry: string, host: string): boolean {
  const want = normalHost(entry);
  const name = normalHost(host);
  if (want.startsWith('*.')) return name.endsWith(want.slice(1));
  return want === name;
}

/** Whether the environment lets the session reach `target` by name (its addresses are checked after). */
export function nameVerdict(target: Endpoint, scope: EgressScope): Verdict {
  if (isGateway(target, scope.gateway)) return { allowed: true };
  const { networking } = scope;
  if (networking.type === 'unrestricted') return { allowed: true };
  const host = normalHost(target.host);
  const named = (list: readonly string[]) => list.some((entry) => hostMatches(entry, host));
  if (named(networking.allowed_hosts)) return { allowed: true };
  if (networking.allow_package_managers && named(PACKAGE_REGISTRIES)) return { allowed: true };
  if (networking.allow_mcp_servers && named(scope.mcpHosts)) return { allowed: true };
  return { allowed: false, reason: `${host} is not in this environment's allowed_hosts (networking: limited)` };
}

export function isGateway(target: Endpoint, gateway: Endpoint | undefined): boolean {
  return gateway !== undefined && target.port === gateway.port && normalHost(target.host) === normalHost(gateway.host);
}

/** Addresses no session reaches, whatever its environment says. */
export interface ClosedAddresses {
  /** This machine's own interface addresses (the product's services listen on them). */
  local: readonly string[];
  /** Resolved SANDBOX_EGRESS_DENY_HOSTS: an address alone closes every port of it. */
  denied: readonly { address: string; port?: number }[];
  /**
   * Resolved SANDBOX_EGRESS_ALLOW_HOSTS: an internal service (a git server, an MCP server) the
   * operator lets sessions reach at exactly this address and port although it is loopback,
   * link-local or one of the machine's own; never over a denied one.
   */
  opened?: readonly { address: string; port: number }[];
}

const ALWAYS_CLOSED = new BlockList();
ALWAYS_CLOSED.addSubnet('0.0.0.0', 8, 'ipv4'); // "this network", 0.0.0.0 reaches the host itself
ALWAYS_CLOSED.addSubnet('127.0.0.0', 8, 'ipv4'); // loopback
ALWAYS_CLOSED.addSubnet('169.254.0.0', 16, 'ipv4'); // link-local, cloud metadata (169.254.169.254)
ALWAYS_CLOSED.addSubnet('224.0.0.0', 4, 'ipv4'); // multicast
ALWAYS_CLOSED.addSubnet('255.255.255.255', 32, 'ipv4');
ALWAYS_CLOSED.addSubnet('100.100.100.200', 32, 'ipv4'); // Alibaba Cloud metadata
ALWAYS_CLOSED.addAddress('::', 'ipv6');
ALWAYS_CLOSED.addAddress('::1', 'ipv6');
ALWAYS_CLOSED.addSubnet('fe80::', 10, 'ipv6'); // link-local
ALWAYS_CLOSED.addSubnet('ff00::', 8, 'ipv6'); // multicast
ALWAYS_CLOSED.addSubnet('fd00:ec2::', 32, 'ipv6'); // AWS metadata over IPv6

/** An IPv4 address written as IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it is. */
function plain(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

/**
 * Whether one resolved address of `target` may be connected to. The gateway's own address and
 * port is the one exception to the closed addresses: the SDK worker in the sandbox needs it.
 */
export function addressVerdict(address: string, target: Endpoint, scope: EgressScope, closed: ClosedAddresses, gatewayAddresses: readonly string[]): Verdict {
  const ip = plain(address);
  const family = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
  if (isGateway(target, scope.gateway) || (target.port === scope.gateway?.port && gatewayAddresses.includes(ip))) return { allowed: true };
  const refused = (what: string): Verdict => ({ allowed: false, reason: `${normalHost(target.host)} (${ip}) is ${what}, which no session may reach` });
  if (closed.denied.some((d) => d.address === ip && (d.port === undefined || d.port === target.port))) return refused("the product's own infrastructure");
  if (closed.opened?.some((o) => o.address === ip && o.port === target.port)) return { allowed: true };
  if (ALWAYS_CLOSED.check(ip, family)) return refused('a loopback, link-local, metadata or multicast address');
  if (closed.local.includes(ip)) return refused("one of this machine's own addresses");
  return { allowed: true };
}

/** `host[:port]` (a bracketed IPv6 address may carry a port) as an endpoint; port undefined when none is given. */
export function parseHostPort(text: string): { host: string; port?: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text.trim());
  if (bracketed) return { host: bracketed[1]!, port: bracketed[2] ? Number(bracketed[2]) : undefined };
  const parts = text.trim().split(':');
  if (parts.length === 2 && /^\d+$/.test(parts[1]!)) return { host: parts[0]!, port: Number(parts[1]) };
  return { host: text.trim() };
}

/** The host and port a URL reaches (the scheme's port when none is written). */
export function endpointOf(url: string): Endpoint {
  const parsed = new URL(url);
  return { host: normalHost(parsed.hostname), port: parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80 };
}
