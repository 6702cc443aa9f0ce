/**
 * The one rule for MCP server URLs (issue 24): https only, and never an address of the
 * installation's own network (loopback, private, link-local and metadata addresses, localhost)
 * unless ALLOW_PRIVATE_MCP_URLS is on. Every validator (catalog's agents, the deployments
 * service's session agent update, vaults' credentials) calls this one function.
 */
import { describe, expect, test } from 'bun:test';
import { checkMcpServerUrl, refusedMcpHost } from '@shared/agents/mcp-server-url';
import { resolveMcpServers } from '@shared/agents/agent-tools';

const strict = { allowPrivate: false };
const allowed = { allowPrivate: true };
const message = (url: string, rules = strict) => {
  try {
    checkMcpServerUrl(url, 'mcp_servers.0.url', rules);
    return 'accepted';
  } catch (err) {
    return (err as Error).message;
  }
};
const NOT_HTTPS = 'mcp_servers.0.url: must be an absolute https:// URL';
const CREDENTIALS = 'mcp_servers.0.url: must not carry credentials';

/** Each URL passes the rules; a failure names the URL. */
function expectAccepted(urls: string[], rules = strict) {
  for (const url of urls) expect({ url, said: message(url, rules) }).toEqual({ url, said: 'accepted' });
}

describe('refused by default', () => {
  test('plain http, other schemes, credentials', () => {
    for (const url of ['http://mcp.example.com/sse', 'ftp://mcp.example.com', 'ws://mcp.example.com', 'not a url', 'https://']) {
      expect(message(url)).toBe(NOT_HTTPS);
    }
    expect(message('https://user:pw@mcp.example.com/')).toStartWith(CREDENTIALS);
  });

  test('loopback, private, link-local, unspecified and metadata addresses, however spelled', () => {
    for (const url of [
      'https://169.254.169.254/latest/meta-data/',
      'https://127.0.0.1/',
      'https://127.1.2.3:8443/mcp',
      'https://2130706433/', // 127.0.0.1 as one number
      'https://0x7f.1/',
      'https://0.0.0.0/',
      'https://10.1.2.3/',
      'https://172.16.0.1/',
      'https://172.31.255.255/',
      'https://192.168.1.1/',
      'https://100.100.100.200/', // a cloud's metadata service, in 100.64/10
      'https://[::1]/',
      'https://[::]/',
      'https://[::ffff:169.254.169.254]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[64:ff9b::a9fe:a9fe]/',
      'https://[fc00::1]/',
      'https://[fd00:ec2::254]/', // AWS's IPv6 metadata address
      'https://[fe80::1]/',
      'https://[FE80::1%25eth0]/',
      'https://localhost/',
      'https://LOCALHOST.:8443/',
      'https://mcp.localhost/',
      'https://metadata.google.internal/',
    ]) {
      const said = message(url);
      if (said === NOT_HTTPS) continue; // the URL parser refused the spelling itself
      expect({ url, said }).toEqual({ url, said: expect.stringMatching(/^mcp_servers\.0\.url: must not name a loopback, private or link-local address or localhost \(/) });
    }
    expect(refusedMcpHost('169.254.169.254')).toContain('link-local');
    expect(refusedMcpHost('[::1]')).toBe('loopback');
  });

  test('public addresses and names are accepted', () => {
    expectAccepted([
      'https://mcp.example.com/sse',
      'https://8.8.8.8/',
      'https://172.32.0.1/',
      'https://192.169.0.1/',
      'https://169.255.0.1/',
      'https://[2001:4860:4860::8888]/',
      'https://localhost.example.com/',
      'https://mcp.example.com:8443/mcp?x=1',
    ]);
  });
});

test('ALLOW_PRIVATE_MCP_URLS accepts loopback, private addresses and plain http, still not credentials or other schemes', () => {
  expectAccepted(['http://127.0.0.1:9000/mcp', 'https://localhost/', 'http://10.0.0.5/sse', 'https://[::1]:8443/'], allowed);
  expect(message('ftp://127.0.0.1/', allowed)).toBe(NOT_HTTPS);
  expect(message('http://u:p@127.0.0.1/', allowed)).toStartWith(CREDENTIALS);
});

test("an agent's servers name the failing index", () => {
  const servers = [
    { type: 'url' as const, name: 'ok', url: 'https://mcp.example.com/' },
    { type: 'url' as const, name: 'meta', url: 'https://169.254.169.254/' },
  ];
  expect(() => resolveMcpServers(servers, strict)).toThrow('mcp_servers.1.url: must not name');
  expect(resolveMcpServers(servers, allowed).map((s) => s.url)).toEqual(['https://mcp.example.com/', 'https://169.254.169.254/']);
});
