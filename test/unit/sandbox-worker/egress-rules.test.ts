import { describe, expect, test } from 'bun:test';
import { addressVerdict, hostMatches, nameVerdict, parseHostPort, type EgressScope } from '../../../services/sandbox-worker/src/domain/egress-rules';

const gateway = { host: '127.0.0.1', port: 8080 };
const unrestricted: EgressScope = { networking: { type: 'unrestricted' }, mcpHosts: [], gateway };
const limited = (over: Partial<Extract<EgressScope['networking'], { type: 'limited' }>> = {}, mcpHosts: string[] = []): EgressScope => ({
  networking: { type: 'limited', allowed_hosts: ['api.example.com', '*.example.org'], allow_package_managers: false, allow_mcp_servers: false, ...over },
  mcpHosts,
  gateway,
});
const closed = { local: ['10.1.2.3'], denied: [{ address: '10.9.9.9', port: 3306 }, { address: '10.9.9.10' }] };

describe('by name', () => {
  test('unrestricted lets every name through to the address check', () => {
    expect(nameVerdict({ host: 'anything.test', port: 443 }, unrestricted)).toEqual({ allowed: true });
  });

  test('limited lets out allowed_hosts (exact, any case, trailing dot) and *.suffix below the suffix only', () => {
    for (const host of ['api.example.com', 'API.Example.com.', 'a.example.org', 'b.a.example.org']) expect(nameVerdict({ host, port: 443 }, limited()).allowed).toBe(true);
    for (const host of ['example.org', 'evil-example.org', 'api.example.com.evil.test', 'www.example.com']) {
      const verdict = nameVerdict({ host, port: 443 }, limited());
      expect(verdict.allowed).toBe(false);
      if (!verdict.allowed) expect(verdict.reason).toContain('allowed_hosts');
    }
  });

  test('package registries only with allow_package_managers; MCP servers only with allow_mcp_servers', () => {
    expect(nameVerdict({ host: 'registry.npmjs.org', port: 443 }, limited()).allowed).toBe(false);
    expect(nameVerdict({ host: 'registry.npmjs.org', port: 443 }, limited({ allow_package_managers: true })).allowed).toBe(true);
    expect(nameVerdict({ host: 'mcp.tools.test', port: 443 }, limited({}, ['mcp.tools.test'])).allowed).toBe(false);
    expect(nameVerdict({ host: 'mcp.tools.test', port: 443 }, limited({ allow_mcp_servers: true }, ['mcp.tools.test'])).allowed).toBe(true);
  });

  test('the gateway is always let out, at its own port only', () => {
    expect(nameVerdict(gateway, limited({ allowed_hosts: [] })).allowed).toBe(true);
    expect(nameVerdict({ host: '127.0.0.1', port: 3306 }, limited({ allowed_hosts: [] })).allowed).toBe(false);
  });
});

describe('by address', () => {
  const target = { host: 'somewhere.test', port: 443 };
  test.each([
    ['127.0.0.1'],
    ['127.8.9.10'],
    ['0.0.0.0'],
    ['169.254.169.254'],
    ['::1'],
    ['::'],
    ['fe80::1'],
    ['::ffff:127.0.0.1'],
    ['224.0.0.1'],
    ['fd00:ec2::254'],
  ])('%s is closed to every session', (address) => {
    expect(addressVerdict(address, target, unrestricted, closed, []).allowed).toBe(false);
  });

  test("this machine's own addresses and the named infrastructure are closed (a port given closes that port only)", () => {
    expect(addressVerdict('10.1.2.3', target, unrestricted, closed, []).allowed).toBe(false);
    expect(addressVerdict('10.9.9.9', { host: 'db', port: 3306 }, unrestricted, closed, []).allowed).toBe(false);
    expect(addressVerdict('10.9.9.9', { host: 'db', port: 443 }, unrestricted, closed, []).allowed).toBe(true);
    expect(addressVerdict('10.9.9.10', { host: 'nats', port: 1 }, unrestricted, closed, []).allowed).toBe(false);
  });

  test('a public address passes; the gateway passes at its port even on loopback, and only there', () => {
    expect(addressVerdict('203.0.113.80', target, unrestricted, closed, [])).toEqual({ allowed: true });
    expect(addressVerdict('127.0.0.1', gateway, unrestricted, closed, ['127.0.0.1']).allowed).toBe(true);
    expect(addressVerdict('127.0.0.1', { host: 'localhost', port: 8080 }, unrestricted, closed, ['127.0.0.1']).allowed).toBe(true);
    expect(addressVerdict('127.0.0.1', { host: 'localhost', port: 8081 }, unrestricted, closed, ['127.0.0.1']).allowed).toBe(false);
  });
});

test('host[:port] entries, bracketed IPv6 included', () => {
  expect(parseHostPort('db.internal:3306')).toEqual({ host: 'db.internal', port: 3306 });
  expect(parseHostPort('nats')).toEqual({ host: 'nats' });
  expect(parseHostPort('[fd00::1]:4222')).toEqual({ host: 'fd00::1', port: 4222 });
  expect(hostMatches('*.example.com', 'a.example.com')).toBe(true);
});
