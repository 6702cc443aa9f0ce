/**
 * `bun run dev`: all the services on local defaults, one sandbox worker among them (pointed at
 * the local gateway, so cloud environments' sessions run their tools). Uses MYSQL_URL / NATS_URL
 * (defaults: the local MariaDB and NATS); where nothing answers there but mariadbd / nats-server are installed,
 * starts private instances under `.data/`; otherwise says exactly what to run. A private NATS
 * runs with the generated permissions and each service connects with its own identity.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { natsUserName, natsUsers, passwordEnvName, renderNatsAuthorization } from '@shared/bus/permissions';
import { BUS_IDENTITIES, type BusIdentity } from '@shared/bus/subject';
import { reachable, startEmbeddedMariadb, startEmbeddedNats } from './local-infrastructure';
import { entryPoint, runtimeFlags, SERVICES } from './services';

const root = join(import.meta.dir, '..', '..');
const dataRoot = join(root, '.data');
const helpers: ChildProcess[] = [];
const children: ChildProcess[] = [];

/**
 * Credentials of the private nats-server dev starts: one identity per service with the same
 * generated permissions as production, fresh passwords each run. Returns each service's extra
 * environment (none when an already-running NATS is used: it keeps working unauthenticated).
 */
function privateNatsIdentities(prefix: string) {
  const passwords = new Map(BUS_IDENTITIES.map((id) => [id, `dev${randomBytes(16).toString('hex')}`]));
  return {
    authorization: renderNatsAuthorization(natsUsers(prefix, (id) => ({ env: passwordEnvName(id) }))),
    serverEnv: Object.fromEntries(BUS_IDENTITIES.map((id) => [passwordEnvName(id), passwords.get(id)!])),
    serviceEnv: (id: BusIdentity) => ({ NATS_USER: natsUserName(prefix, id), NATS_PASSWORD: passwords.get(id)! }),
  };
}

async function ensureInfrastructure(
  env: Record<string, string>,
): Promise<((id: BusIdentity) => Record<string, string>) | undefined> {
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
    const identities = privateNatsIdentities(env.BUS_PREFIX ?? '');
    helpers.push(await startEmbeddedNats(dataRoot, natsPort, { authorization: identities.authorization, env: identities.serverEnv }));
    return identities.serviceEnv;
  }
  return undefined;
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
  const natsIdentity = await ensureInfrastructure(env);
  const gatewayUrl = `http://127.0.0.1:${env.PORT ?? 8080}`;
  for (const service of SERVICES) {
    const child = spawn('bun', [...runtimeFlags(service), entryPoint(service)], {
      cwd: root,
      env: {
        ...env,
        ...natsIdentity?.(service),
        ...(service === 'sandbox-worker' ? { SANDBOX_GATEWAY_URL: env.SANDBOX_GATEWAY_URL ?? gatewayUrl } : {}),
      },
      stdio: 'inherit',
    });
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
  console.log(`dev: gateway on ${gatewayUrl} (development key: see README)`);
}

main().catch((err) => {
  console.error(`dev: ${(err as Error).message}`);
  for (const helper of helpers) helper.kill('SIGTERM');
  process.exit(1);
});
