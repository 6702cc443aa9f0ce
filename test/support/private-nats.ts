import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
  for (let i = 0; !log.includes('Server is ready'); i++) {
    if (child.exitCode !== null || i > 200) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`nats-server did not start:\n${log}`);
    }
    await Bun.sleep(50);
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
