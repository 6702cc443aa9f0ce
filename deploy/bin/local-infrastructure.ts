import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, existsSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

const user = () => process.env.USER ?? (process.getuid?.() === 0 ? 'root' : 'nobody');

/** Whether something accepts TCP connections at host:port within a short time. */
export function reachable(host: string, port: number, timeoutMs = 800): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function waitUntilReachable(host: string, port: number, what: string, seconds = 30): Promise<void> {
  for (let i = 0; i < seconds * 4; i++) {
    if (await reachable(host, port)) return;
    await Bun.sleep(250);
  }
  throw new Error(`${what} did not start listening on ${host}:${port}`);
}

const which = (binary: string): string | undefined => {
  for (const dir of ['/usr/sbin', '/usr/bin', '/usr/local/sbin', '/usr/local/bin', ...(process.env.PATH ?? '').split(':')]) {
    const path = join(dir, binary);
    if (existsSync(path)) return path;
  }
  return undefined;
};

/**
 * When nothing answers at MYSQL_URL but mariadbd is installed, runs a private MariaDB with its
 * data under `.data/mariadb`, so `bun run dev` works on a fresh machine.
 */
export async function startEmbeddedMariadb(dataRoot: string, port: number): Promise<ChildProcess> {
  const mariadbd = which('mariadbd');
  const installDb = which('mariadb-install-db') ?? which('mysql_install_db');
  if (!mariadbd || !installDb) {
    throw new Error(
      `nothing answers on 127.0.0.1:${port} and mariadbd is not installed. Start MySQL/MariaDB and set MYSQL_URL, e.g.\n` +
        `  start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd`,
    );
  }
  const datadir = join(dataRoot, 'mariadb');
  if (!existsSync(join(datadir, 'mysql'))) {
    mkdirSync(datadir, { recursive: true });
    // --no-defaults: the machine's my.cnf names its own user, datadir and log paths.
    const init = spawnSync(
      installDb,
      ['--no-defaults', '--basedir=/usr', `--datadir=${datadir}`, '--auth-root-authentication-method=normal', '--skip-test-db', `--user=${user()}`],
      { stdio: 'ignore' },
    );
    if (init.status !== 0) throw new Error(`mariadb-install-db failed (exit ${init.status}) for ${datadir}`);
  }
  const child = spawn(
    mariadbd,
    [
      '--no-defaults',
      `--datadir=${datadir}`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      `--socket=${join(datadir, 'mariadb.sock')}`,
      `--pid-file=${join(datadir, 'mariadb.pid')}`,
      `--log-error=${join(datadir, 'error.log')}`,
      `--user=${user()}`,
    ],
    { stdio: 'ignore' },
  );
  await waitUntilReachable('127.0.0.1', port, 'embedded MariaDB');
  return child;
}

/**
 * Same for NATS: a private JetStream-enabled nats-server with its store under `.data/nats`,
 * configured with `authorization` (the generated permissions, shared/bus/permissions.ts) and
 * the environment that block's password references read.
 */
export async function startEmbeddedNats(
  dataRoot: string,
  port: number,
  auth: { authorization: string; env: Record<string, string> },
): Promise<ChildProcess> {
  const natsServer = which('nats-server');
  if (!natsServer) {
    throw new Error(
      `nothing answers on 127.0.0.1:${port} and nats-server is not installed. Start NATS with JetStream and set NATS_URL, e.g.\n` +
        `  start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server`,
    );
  }
  const store = join(dataRoot, 'nats');
  mkdirSync(store, { recursive: true });
  const config = join(store, 'nats.conf');
  writeFileSync(
    config,
    `listen: "127.0.0.1:${port}"\njetstream { store_dir: ${JSON.stringify(store)} }\n${auth.authorization}`,
    { mode: 0o600 },
  );
  const child = spawn(natsServer, ['-c', config], { stdio: 'ignore', env: { ...process.env, ...auth.env } });
  await waitUntilReachable('127.0.0.1', port, 'embedded NATS');
  return child;
}
