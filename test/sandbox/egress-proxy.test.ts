/**
 * The egress proxy a session's sandbox reaches through its unix socket, over real sockets: what it
 * lets through arrives (a tunnel, and a plain-HTTP request rewritten to origin form), what it
 * refuses gets a 403 naming why, and closing it ends the tunnels still open.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../shared/log/logger';
import { startEgressProxy, type EgressProxy } from '../../services/sandbox-worker/src/clients/egress-proxy';

let dir: string;
let proxy: EgressProxy;
let upstream: ReturnType<typeof Bun.serve>;
let socketPath: string;

beforeAll(async () => {
  upstream = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (request) => new Response(`upstream saw ${request.method} ${new URL(request.url).pathname}`) });
  dir = await mkdtemp(join(tmpdir(), 'egress-'));
  socketPath = join(dir, 'egress.sock');
  proxy = await startEgressProxy({
    socketPath,
    // The upstream stands for the gateway: the one loopback endpoint a session reaches.
    scope: { networking: { type: 'limited', allowed_hosts: ['allowed.test'], allow_package_managers: false, allow_mcp_servers: false }, mcpHosts: [], gateway: { host: '127.0.0.1', port: upstream.port! } },
    closed: { local: [], denied: [] },
    logger: createLogger('error'),
    resolve: async (host) => (host === 'allowed.test' ? ['127.0.0.1'] : host === '127.0.0.1' ? ['127.0.0.1'] : Promise.reject(new Error('no such host'))),
  });
});

afterAll(async () => {
  await proxy.close();
  upstream.stop(true);
  await rm(dir, { recursive: true, force: true });
});

/** Sends `request` to the proxy and reads until it closes the connection (or `until` shows up). */
function exchange(request: string, until?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString();
      if (until && text.includes(until)) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
    socket.write(request);
  });
}

test('a plain-HTTP request to the gateway goes through, in origin form', async () => {
  const answer = await exchange(`GET http://127.0.0.1:${upstream.port}/v1/x?y=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  expect(answer).toStartWith('HTTP/1.1 200');
  expect(answer).toContain('upstream saw GET /v1/x');
});

test('CONNECT to the gateway opens a tunnel', async () => {
  const answer = await exchange(`CONNECT 127.0.0.1:${upstream.port} HTTP/1.1\r\n\r\nGET /tunnel HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, 'upstream saw');
  expect(answer).toStartWith('HTTP/1.1 200 Connection Established\r\n\r\nHTTP/1.1 200');
});

test('a host outside allowed_hosts is refused by name, with the reason', async () => {
  const answer = await exchange('CONNECT elsewhere.test:443 HTTP/1.1\r\n\r\n');
  expect(answer).toStartWith('HTTP/1.1 403 Forbidden');
  expect(answer).toContain("egress to elsewhere.test:443 refused: elsewhere.test is not in this environment's allowed_hosts (networking: limited)");
});

test('an allowed name that resolves to a closed address is refused by address', async () => {
  const answer = await exchange('CONNECT allowed.test:3306 HTTP/1.1\r\n\r\n');
  expect(answer).toStartWith('HTTP/1.1 403 Forbidden');
  expect(answer).toContain('allowed.test (127.0.0.1) is a loopback, link-local, metadata or multicast address');
});

test('the gateway host at another port is not the gateway', async () => {
  expect(await exchange('CONNECT 127.0.0.1:3306 HTTP/1.1\r\n\r\n')).toStartWith('HTTP/1.1 403 Forbidden');
});

test('what is not a proxy request gets a 400', async () => {
  expect(await exchange('GET /relative HTTP/1.1\r\n\r\n')).toStartWith('HTTP/1.1 400 Bad Request');
});
