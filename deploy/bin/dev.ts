/**
 * `bun run dev`: all five services on local defaults. Uses MYSQL_URL / NATS_URL (defaults: the
 * local MariaDB and NATS); where nothing answers there but mariadbd / nats-server are installed,
 * starts private instances under `.data/`; otherwise says exactly what to run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { reachable, startEmbeddedMariadb, startEmbeddedNats } from './local-infrastructure';
import { entryPoint, runtimeFlags, SERVICES } from './services';

const root = join(import.meta.dir, '..', '..');
const dataRoot = join(root, '.data');
const helpers: ChildProcess[] = [];
const children: ChildProcess[] = [];

async function ensureInfrastructure(env: Record<string, string>): Promise<void> {
  const mysql = new URL(env.MYSQL_URL);
  const mysqlPort = Number(mysql.port || 3306);
  if (!(await reachable(mysql.hostname, mysqlPort))) {
    if (!['127.0.0.1', 'localhost'].includes(mysql.hostname)) throw new Error(`MySQL at ${env.MYSQL_URL} does not answer`);
    console.log(`dev: nothing answers at ${mysql.hostname}:${mysqlPort}; starting a private MariaDB under .data/`);
    helpers.push(await startEmbeddedMariadb(dataRoot, mysqlPort));
  }
  const nats = new URL(env.NATS_URL.split(',')[0]);
  const natsPort = Number(nats.port || 4222);
  if (!(await reachable(nats.hostname, natsPort))) {
    if (!['127.0.0.1', 'localhost'].includes(nats.hostname)) throw new Error(`NATS at ${env.NATS_URL} does not answer`);
    console.log(`dev: nothing answers at ${nats.hostname}:${natsPort}; starting a private nats-server under .data/`);
    helpers.push(await startEmbeddedNats(dataRoot, natsPort));
  }
}

function stopAll(signal: NodeJS.Signals): void {
  for (const child of children) child.kill(signal);
  const exited = children.map((c) => (c.exitCode !== null ? Promise.resolve() : new Promise((r) => c.once('exit', r))));
  Promise.all(exited).then(() => {
    for (const helper of helpers) helper.kill('SIGTERM');
    process.exit(0);
  });
}

async function main(): Promise<void> {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    MYSQL_URL: process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306',
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  };
  await ensureInfrastructure(env);
  for (const service of SERVICES) {
    const child = spawn('bun', [...runtimeFlags(service), entryPoint(service)], { cwd: root, env, stdio: 'inherit' });
    child.once('exit', (code, signal) => {
      if (signal === null && code !== 0) {
        console.error(`dev: ${service} exited with code ${code}; stopping the rest`);
        stopAll('SIGTERM');
      }
    });
    children.push(child);
  }
  process.on('SIGINT', () => stopAll('SIGTERM'));
  process.on('SIGTERM', () => stopAll('SIGTERM'));
  console.log(`dev: gateway on http://127.0.0.1:${env.PORT ?? 8080} (development key: see README)`);
}

main().catch((err) => {
  console.error(`dev: ${(err as Error).message}`);
  for (const helper of helpers) helper.kill('SIGTERM');
  process.exit(1);
});
