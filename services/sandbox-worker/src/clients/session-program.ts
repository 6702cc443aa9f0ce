/**
 * One session's program: what clients/session-process.ts starts for handlers/serve-work-item.ts,
 * inside the session's sandbox (bundled into one file, since the checkout is not mounted there),
 * with nothing in its environment but its work item (ANTHROPIC_WORK_ID, _ENVIRONMENT_ID,
 * _SESSION_ID, _WORK_SECRET), the gateway (ANTHROPIC_BASE_URL), PATH, HOME and the proxy settings.
 * The SDK's own EnvironmentWorker serves the item, unchanged: it heartbeats the item's lease, runs
 * the agent toolset's calls in the work directory and sends their results, all through the
 * gateway with the item's sessions token, and stops the item once the session has been idle for
 * --idle-ms after its turn. It ends itself after --lifetime-ms, in case its parent is gone; the
 * parent kills it then anyway.
 *
 * In a sandbox the network namespace has only loopback: the program forwards 127.0.0.1:3128 (the
 * HTTP(S)_PROXY of every tool) to the egress proxy's unix socket the worker bound in
 * (SANDBOX_EGRESS_SOCKET), and its own calls to the gateway go through that proxy too.
 *
 * With --exec it serves no item: it runs the command after `--` with that forwarding in place and
 * exits as it does (a package install, clients/package-cache.ts).
 */
import Anthropic from '@anthropic-ai/sdk';
import { connect, createServer } from 'node:net';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  options: { 'idle-ms': { type: 'string' }, 'lifetime-ms': { type: 'string' }, 'proxy-port': { type: 'string' }, exec: { type: 'boolean' } },
  allowPositionals: true,
});
const idleMs = Number(values['idle-ms']);
const lifetimeMs = Number(values['lifetime-ms']);
const egressSocket = process.env.SANDBOX_EGRESS_SOCKET;

/** 127.0.0.1:<port> -> the egress socket, byte for byte (the proxy on the other side decides). */
function forwardToEgress(socketPath: string, port: number): Promise<void> {
  const server = createServer((inside) => {
    const outside = connect(socketPath);
    inside.pipe(outside).on('error', () => inside.destroy());
    outside.pipe(inside).on('error', () => outside.destroy());
    inside.on('error', () => outside.destroy());
    outside.on('error', () => inside.destroy());
  });
  return new Promise((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', () => resolve()));
}

try {
  const proxyPort = Number(values['proxy-port'] ?? 0);
  if (egressSocket && proxyPort) await forwardToEgress(egressSocket, proxyPort);
  if (values.exec) {
    const child = Bun.spawn(positionals, { stdin: 'ignore', stdout: 'inherit', stderr: 'inherit' });
    process.exit(await child.exited);
  }
  const fetchOptions = egressSocket && proxyPort ? { proxy: `http://127.0.0.1:${proxyPort}` } : {};
  const client = new Anthropic({ baseURL: process.env.ANTHROPIC_BASE_URL, fetchOptions });
  await client.beta.environments.work.worker({ workdir: process.cwd(), maxIdleMs: idleMs }).handleItem({ signal: AbortSignal.timeout(lifetimeMs) });
  process.exit(0);
} catch (err) {
  process.stderr.write(`sandbox session failed: ${(err as Error).message}\n`);
  process.exit(1);
}
