import { describe, expect, test } from 'bun:test';
import { clientAddress } from '../../../services/gateway/src/domain/client-address';

describe('client address of the failed-lookup limit', () => {
  test('with no trusted proxy, the peer; X-Forwarded-For is the client\'s own word and ignored', () => {
    expect(clientAddress('203.0.113.7', null, 0)).toBe('203.0.113.7');
    expect(clientAddress('203.0.113.7', '198.51.100.1', 0)).toBe('203.0.113.7');
  });

  test('behind trusted proxies, the entry that many from the right of the chain', () => {
    // client -> ingress (appends the client) -> gateway
    expect(clientAddress('10.0.0.5', '198.51.100.1', 1)).toBe('198.51.100.1');
    // Whatever the client wrote left of it proves nothing.
    expect(clientAddress('10.0.0.5', '1.1.1.1, 2.2.2.2, 198.51.100.1', 1)).toBe('198.51.100.1');
    // client -> CDN -> ingress -> gateway
    expect(clientAddress('10.0.0.5', '1.1.1.1, 198.51.100.1, 172.16.0.9', 2)).toBe('198.51.100.1');
  });

  test('a chain shorter than the hops falls back to its leftmost entry; what is not an address, to the peer', () => {
    expect(clientAddress('10.0.0.5', '198.51.100.1', 3)).toBe('198.51.100.1');
    expect(clientAddress('10.0.0.5', null, 1)).toBe('10.0.0.5');
    expect(clientAddress('10.0.0.5', 'unknown', 1)).toBe('10.0.0.5');
    expect(clientAddress(undefined, null, 0)).toBe('unknown');
  });

  test('ports as proxies write them are dropped', () => {
    expect(clientAddress('10.0.0.5', '198.51.100.1:4711', 1)).toBe('198.51.100.1');
    expect(clientAddress('10.0.0.5', '[2001:db8::1]:443', 1)).toBe('2001:db8:0:0::/64');
  });

  test('IPv4-mapped addresses are IPv4; IPv6 counts by its /64', () => {
    expect(clientAddress('::ffff:127.0.0.1', null, 0)).toBe('127.0.0.1');
    expect(clientAddress('2001:db8:aa:bb:1:2:3:4', null, 0)).toBe('2001:db8:aa:bb::/64');
    expect(clientAddress('2001:0db8:00aa:00bb:ffff::1', null, 0)).toBe('2001:db8:aa:bb::/64');
    expect(clientAddress('::1', null, 0)).toBe('0:0:0:0::/64');
    expect(clientAddress('fe80::1%eth0', null, 0)).toBe('fe80:0:0:0::/64');
    expect(clientAddress('2001:db8::1.2.3.4', null, 0)).toBe('2001:db8:0:0::/64');
  });
});
