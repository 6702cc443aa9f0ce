import { isIP } from 'node:net';

/**
 * The address a request's failed key lookups are counted against.
 *
 * The connection's peer is the client only when nothing stands in front of the gateway. Behind
 * proxies (an ingress, a load balancer) the peer is the nearest proxy, and the client is in
 * `X-Forwarded-For`, which each proxy appends to; everything left of what the trusted proxies
 * appended was written by the client and proves nothing. So with `trustedHops` proxies in front,
 * the client is the entry that many places from the right of the chain "X-Forwarded-For entries,
 * then the peer"; with 0 (the default) the header is ignored, since any client can send one. A
 * chain shorter than that (a request that reached the gateway past the proxies) falls back to its
 * leftmost entry; an entry that is not an address, to the peer.
 *
 * IPv6 clients are counted by their /64: one host commonly holds a whole /64, and counting single
 * addresses would give it 2^64 budgets.
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | null, trustedHops: number): string {
  const peerAddress = normalizedAddress(peer ?? '') ?? 'unknown';
  if (trustedHops === 0 || forwardedFor === null) return peerAddress;
  const chain = [
    ...forwardedFor
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ''),
    peer ?? '',
  ];
  const chosen = chain[Math.max(0, chain.length - 1 - trustedHops)]!;
  return normalizedAddress(withoutPort(chosen)) ?? peerAddress;
}

/** `1.2.3.4:80` and `[2001:db8::1]:80` as proxies sometimes write them; a bare IPv6 address is left alone. */
function withoutPort(entry: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(entry);
  if (bracketed) return bracketed[1]!;
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(entry);
  return v4WithPort ? v4WithPort[1]! : entry;
}

/** IPv4 as is (also when IPv4-mapped), IPv6 as its /64 prefix; undefined for what is not an address. */
function normalizedAddress(raw: string): string | undefined {
  const address = raw.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1];
  const version = isIP(address);
  if (version === 4) return address;
  if (version === 6) return `${ipv6Groups(address).slice(0, 4).join(':')}::/64`;
  return undefined;
}

/** The eight groups of a valid IPv6 address, `::` expanded, without leading zeros. */
function ipv6Groups(address: string): string[] {
  const [head, tail] = address.split('::') as [string, string | undefined];
  // A dotted IPv4 tail (::1.2.3.4) stands for two groups.
  const groups = (part: string) => (part === '' ? [] : part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((g) => parseInt(g, 16).toString(16));
}
