import { Type } from '@sinclair/typebox';
import { invalidRequest } from '@shared/errors/api-error';

/**
 * The one rule for an MCP server's URL, wherever one is given: an agent's `mcp_servers` (catalog,
 * and the deployments service for a session's agent update) and a vault credential's
 * `mcp_server_url` (vaults). The product connects to these URLs from inside the installation,
 * with the tenant's credentials attached, so a tenant must not be able to aim it at the
 * installation's own network: loopback, private and link-local addresses (the cloud metadata
 * service at 169.254.169.254 among them) and `localhost` are refused, and the scheme is https, so
 * a bearer token never travels in clear.
 *
 * Only literal addresses and the reserved names are refused here: a public name that resolves to
 * a private address is for the egress side to refuse (it sees the address actually connected to).
 */

export interface McpUrlRules {
  /**
   * `ALLOW_PRIVATE_MCP_URLS`: accept private, loopback and link-local addresses, `localhost`, and
   * plain `http://` (an MCP server inside the operator's own network, or a test's on loopback).
   */
  allowPrivate: boolean;
}

/** The setting, spread into the config schema of every service that validates MCP server URLs. */
export const McpUrlConfig = {
  /**
   * Accept MCP server URLs naming private, loopback or link-local addresses, `localhost`, or
   * plain `http://`. Off: a tenant could otherwise make the product call the installation's own
   * network (the cloud metadata service, internal services) with credentials attached.
   */
  ALLOW_PRIVATE_MCP_URLS: Type.Boolean({ default: false }),
};

export const DEFAULT_MCP_URL_RULES: McpUrlRules = { allowPrivate: false };

/** Names that always mean this machine or the cloud's metadata service, whatever DNS says. */
const RESERVED_NAME = /(^|\.)localhost$|^metadata\.google\.internal$/;

/** IPv4 blocks never reachable as a public MCP server: [first address, prefix length, why]. */
const REFUSED_V4: Array<[string, number, string]> = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (carrier-grade NAT, some clouds\' metadata)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'private'],
  ['192.168.0.0', 16, 'private'],
  ['224.0.0.0', 3, 'multicast or reserved'],
];

const v4Number = (address: string) => address.split('.').reduce((n, part) => n * 256 + Number(part), 0);

function refusedV4(address: string): string | undefined {
  const n = v4Number(address);
  for (const [first, prefix, why] of REFUSED_V4) {
    const size = 2 ** (32 - prefix);
    if (Math.floor(n / size) === Math.floor(v4Number(first) / size)) return why;
  }
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address as the URL parser prints it (compressed, no brackets). */
function v6Groups(address: string): number[] {
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  return [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
}

function refusedV6(address: string): string | undefined {
  const g = v6Groups(address);
  if (g.slice(0, 7).every((x) => x === 0) && g[7]! <= 1) return g[7] === 1 ? 'loopback' : 'unspecified';
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64
  // (64:ff9b::a.b.c.d) addresses reach the IPv4 address they carry.
  const embedsV4 = g.slice(0, 5).every((x) => x === 0) && (g[5] === 0 || g[5] === 0xffff);
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0);
  if (embedsV4 || nat64) return refusedV4(`${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`);
  if ((g[0]! & 0xfe00) === 0xfc00) return 'private (unique local)';
  if ((g[0]! & 0xffc0) === 0xfe80 || (g[0]! & 0xffc0) === 0xfec0) return 'link-local';
  if ((g[0]! & 0xff00) === 0xff00) return 'multicast';
  return undefined;
}

/** Why the host may not be an MCP server's, or undefined when it may. `hostname` as WHATWG URL gives it. */
export function refusedMcpHost(hostname: string): string | undefined {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host.startsWith('[')) return refusedV6(host.slice(1, -1));
  // The URL parser has already turned every IPv4 spelling (0x7f.1, 2130706433) into dotted form.
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return refusedV4(host);
  if (RESERVED_NAME.test(host)) return 'a name of this machine or of the metadata service';
  return undefined;
}

/**
 * `https://` with a host, no credentials (a server's secrets live in a vault credential, never in
 * a URL), and not an address of the installation's own network unless the operator allows it.
 * Every failure is a 400 naming `field`.
 */
export function checkMcpServerUrl(url: string, field: string, rules: McpUrlRules): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidRequest(`${field}: must be an absolute https:// URL`);
  }
  const schemeOk = parsed.protocol === 'https:' || (rules.allowPrivate && parsed.protocol === 'http:');
  if (!schemeOk || !parsed.hostname) throw invalidRequest(`${field}: must be an absolute https:// URL`);
  if (parsed.username || parsed.password) {
    throw invalidRequest(`${field}: must not carry credentials (user or password); store them in a vault credential`);
  }
  if (rules.allowPrivate) return;
  const why = refusedMcpHost(parsed.hostname);
  if (why) throw invalidRequest(`${field}: must not name a loopback, private or link-local address or localhost (${parsed.hostname} is ${why})`);
}
