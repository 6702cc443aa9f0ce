import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from './eventually';

/** A free loopback port (the OS picks it; the socket is closed before the server binds it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface PrivateNats {
  url: string;
  port: number;
  /** What the server has logged so far (errors and warnings, e.g. permission violations). */
  log(): string;
  stop(): Promise<void>;
}

/**
 * A nats-server of this test file only (JetStream, temporary store), started with the given
 * configuration text (listen and store lines are added here). Stopped and its store removed by
 * stop(); the caller bounds its lifetime (afterAll).
 */
export async function startPrivateNats(config: string, env: Record<string, string> = {}): Promise<PrivateNats> {
  const dir = mkdtempSync(join(tmpdir(), 'private-nats-'));
  const port = await freePort();
  const file = join(dir, 'nats.conf');
  writeFileSync(file, `listen: "127.0.0.1:${port}"\njetstream { store_dir: ${JSON.stringify(join(dir, 'store'))} }\n${config}`);
  const child: ChildProcess = spawn('/usr/sbin/nats-server', ['-c', file], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...env },
  });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // nats-server logs this line once the client port accepts connections.
  try {
    await eventually(
      'nats-server to be ready',
      () => {
        if (child.exitCode !== null) throw new Error('nats-server exited');
        return log.includes('Server is ready') ? true : undefined;
      },
      { timeoutMs: 10_000, intervalMs: 50 },
    );
  } catch (err) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`nats-server did not start (${(err as Error).message}):\n${log}`);
  }
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    log: () => log,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TestCertificates {
  dir: string;
  ca: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
}

/** A throwaway CA with a server certificate for 127.0.0.1 and a client certificate (openssl). */
export function makeTestCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'nats-tls-'));
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => {
    const result = Bun.spawnSync(['openssl', ...args], { cwd: dir, stdout: 'ignore', stderr: 'pipe' });
    if (result.exitCode !== 0) throw new Error(`openssl ${args[0]} failed: ${result.stderr.toString()}`);
  };
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl('req', '-x509', ...ec, '-keyout', at('ca.key'), '-out', at('ca.crt'), '-subj', '/CN=test-ca', '-days', '2');
  for (const [name, ext] of [
    ['server', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n'],
    ['client', 'extendedKeyUsage=clientAuth\n'],
  ] as const) {
    writeFileSync(at(`${name}.ext`), ext);
    openssl('req', ...ec, '-keyout', at(`${name}.key`), '-out', at(`${name}.csr`), '-subj', `/CN=${name}`);
    openssl('x509', '-req', '-in', at(`${name}.csr`), '-CA', at('ca.crt'), '-CAkey', at('ca.key'), '-CAcreateserial',
      '-out', at(`${name}.crt`), '-days', '2', '-extfile', at(`${name}.ext`));
  }
  return {
    dir,
    ca: at('ca.crt'),
    serverCert: at('server.crt'),
    serverKey: at('server.key'),
    clientCert: at('client.crt'),
    clientKey: at('client.key'),
  };
}
