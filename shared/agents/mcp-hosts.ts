import { refusedMcpHost } from './mcp-server-url';

/**
 * Where the product may connect with a tenant's credential attached: the runtime to an MCP
 * server, the vaults service to an `mcp_oauth` credential's token endpoint (pure; the callers
 * look the name up). The
 * catalog and vaults refuse literal private addresses when a URL is stored; the runtime is the
 * side that sees what a name resolves to, so it refuses a server any of whose addresses is
 * private, loopback or link-local, unless the operator named the host in MCP_ALLOW_PRIVATE_HOSTS.
 * A bearer token never travels in clear: plain http:// only to such an allowed host.
 */

/** MCP_ALLOW_PRIVATE_HOSTS as a set of lower-case `host` and `host:port` entries. */
export function parseAllowedHosts(setting: string): ReadonlySet<string> {
  return new Set(
    setting
      .split(',')
      .map((entry) => entry.trim().toLowerCase())
      .filter((entry) => entry.length > 0),
  );
}

const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** Whether the URL's host (with or without its port) is one the operator allows to be private. */
export function allowedPrivateHost(url: URL, allowed: ReadonlySet<string>): boolean {
  const host = url.hostname.toLowerCase();
  const port = url.port || DEFAULT_PORT[url.protocol] || '';
  return allowed.has(host) || allowed.has(`${host}:${port}`);
}

/** Why the runtime may not connect to `url` before any lookup (scheme, literal address), or undefined. */
export function refusedMcpUrl(url: URL, allowed: ReadonlySet<string>): string | undefined {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `${url.protocol} is not an MCP transport`;
  if (allowedPrivateHost(url, allowed)) return undefined;
  if (url.protocol !== 'https:') return 'plain http:// is refused (the bearer token would travel in clear)';
  const why = refusedMcpHost(url.hostname);
  return why ? `${url.hostname} is ${why}` : undefined;
}

/** Why the resolved addresses of an unlisted host may not be connected to, or undefined. */
export function refusedMcpAddresses(hostname: string, addresses: readonly string[]): string | undefined {
  for (const address of addresses) {
    // Through the URL parser: the spelling refusedMcpHost reads (compressed IPv6, dotted IPv4).
    const why = refusedMcpHost(new URL(`http://${address.includes(':') ? `[${address}]` : address}/`).hostname);
    if (why) return `${hostname} resolves to ${address}, which is ${why}`;
  }
  return undefined;
}
