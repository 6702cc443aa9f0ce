/**
 * End-to-end fire lag: a private stack of the whole product (own databases fl_<id>_*, own
 * BUS_PREFIX, own gateway port, W scheduler processes with distinct SCHEDULER_WORKER_IDs), N
 * minutely scheduled deployments created THROUGH THE GATEWAY over HTTP, then a few minutes of
 * fires through the real path (scheduler -> deployments.fire -> session + run + sessions.created).
 * Not part of `bun test`.
 *
 *   bun bench/fire-lag.ts                                   # 30,000 schedules, 3 workers, 3 minutes, 100 tenants
 *   bun bench/fire-lag.ts --schedules 10000 --workers 1 --minutes 2 --tenants 1
 *   SCHEDULES=30000 WORKERS=3 MINUTES=3 TENANTS=100 bun bench/fire-lag.ts   # the same, by environment
 *
 * Any other setting of the services (SCHEDULER_BATCH_SIZE, SCHEDULER_POLL_MS, MYSQL_POOL_SIZE,
 * TENANT_MAX_CONCURRENCY, LOG_LEVEL ...) is passed through from the environment to every process.
 * CPU_PROF_DIR=/tmp/prof writes each process's CPU profile there (`bun --cpu-prof-md`) when it stops.
 *
 * What is measured (printed with the figures):
 * - T0 is the instant the last create was answered, rounded up to a whole second (plus
 *   --settle seconds, default 0); the window is [T0, T0 + minutes).
 * - Expected: every (deployment, occurrence) with occurrence a minute boundary after the
 *   deployment's created_at and fire time (occurrence + the deployment's jitter,
 *   scheduleJitterMs(id, JITTER_MAX_MS)) inside the window.
 * - Runs are read from the bench's own deployments database after the window plus a grace
 *   period (--grace, default 15 s): missing = expected without a run, duplicate = more than one
 *   run for one (deployment, occurrence), lag = run created_at - occurrence - jitter.
 * - CPU seconds per process over the window (the stack's own processes; MariaDB and NATS are the
 *   machine's shared servers, so their figure includes anything else they served meanwhile).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { deleteStreams } from '@shared/bus/streams';
import { scheduleJitterMs } from '@shared/cron';
import { connectDatabase, dropDatabase } from '@shared/db/connect';
import { migrateDatabase } from '@shared/db/migrate';
import { randomBase62 } from '@shared/ids/ids';
import { bucketName } from '@shared/service-host/service-host';
import { systemClock } from '@shared/time/clock';
import { entryPoint, runtimeFlags, type ServiceName } from '../deploy/bin/services';
import { ApiKeyStore } from '../services/gateway/src/auth/api-key-store';
import { GATEWAY_MIGRATIONS } from '../services/gateway/src/start-gateway';

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    schedules: { type: 'string' },
    workers: { type: 'string' },
    minutes: { type: 'string' },
    tenants: { type: 'string' },
    concurrency: { type: 'string' },
    settle: { type: 'string' },
    grace: { type: 'string' },
    keep: { type: 'boolean' },
  },
});
const num = (flag: string | undefined, env: string, fallback: number) => Number(flag ?? process.env[env] ?? fallback);
const SCHEDULES = num(flags.schedules, 'SCHEDULES', 30_000);
const WORKERS = num(flags.workers, 'WORKERS', 3);
const MINUTES = num(flags.minutes, 'MINUTES', 3);
const TENANTS = num(flags.tenants, 'TENANTS', 100);
const CONCURRENCY = num(flags.concurrency, 'CREATE_CONCURRENCY', 64);
const SETTLE_S = num(flags.settle, 'SETTLE_SECONDS', 0);
const GRACE_S = num(flags.grace, 'GRACE_SECONDS', 15);
const KEEP = flags.keep ?? process.env.KEEP === 'true';
const JITTER_MAX_MS = Number(process.env.JITTER_MAX_MS ?? 60_000);
const MYSQL_URL = process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

const id = randomBase62(6).toLowerCase();
const prefix = `fl${id}`;
const dbName = (service: ServiceName) => `fl_${id}_${service}`;
const logDir = join(tmpdir(), `fire-lag-${id}`);
mkdirSync(logDir, { recursive: true });
const root = join(import.meta.dir, '..');
const serviceDir = (service: ServiceName) => dirname(dirname(join(root, entryPoint(service))));

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

// ---------------------------------------------------------------------------------------------
// The stack: one process per service, W scheduler processes.

interface Proc {
  name: string;
  child: ChildProcess;
  healthPort?: number;
}
const procs: Proc[] = [];
const baseEnv: Record<string, string> = {
  ...(process.env as Record<string, string>),
  MYSQL_URL,
  NATS_URL,
  BUS_PREFIX: prefix,
  JITTER_MAX_MS: String(JITTER_MAX_MS),
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
};

async function startProcess(name: string, service: ServiceName, env: Record<string, string>): Promise<Proc> {
  const healthPort = service === 'gateway' ? undefined : await freePort();
  const logFile = join(logDir, `${name}.log`);
  const fd = openSync(logFile, 'a');
  // Started from the service's own folder as `bun src/main.ts`: the same entry point, and a
  // command line no one else's `pgrep -f services/...` (a dev stack's tooling) takes for theirs.
  const profile = process.env.CPU_PROF_DIR ? ['--cpu-prof-md', `--cpu-prof-dir=${process.env.CPU_PROF_DIR}`, `--cpu-prof-name=${name}.md`] : [];
  const child = spawn('bun', [...profile, ...runtimeFlags(service), relative(serviceDir(service), join(root, entryPoint(service)))], {
    cwd: serviceDir(service),
    env: { ...baseEnv, DATABASE_NAME: dbName(service), ...(healthPort && { HEALTH_PORT: String(healthPort) }), ...env },
    stdio: ['ignore', fd, fd],
  });
  child.once('exit', (code, signal) => {
    closeSync(fd);
    if (!stopping) console.error(`fire-lag: ${name} exited (${code ?? signal}); see ${logFile}`);
  });
  const proc = { name, child, healthPort };
  procs.push(proc);
  return proc;
}

async function waitReady(url: string, what: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const ok = await fetch(url).then((r) => r.ok).catch(() => false);
    if (ok) return;
    if (Date.now() > until) throw new Error(`${what} not ready at ${url}`);
    await Bun.sleep(200);
  }
}

let stopping = false;
async function stopStack(): Promise<void> {
  stopping = true;
  // The schedulers and the gateway first: a scheduler outliving the deployments service would
  // log every fire it still sends as failed.
  const stop = (group: Proc[]) => {
    for (const p of group) p.child.kill('SIGTERM');
    return Promise.all(
      group.map((p) => (p.child.exitCode !== null || p.child.signalCode !== null ? undefined : new Promise((r) => p.child.once('exit', r)))),
    );
  };
  const callers = procs.filter((p) => p.name.startsWith('scheduler') || p.name === 'gateway');
  await stop(callers);
  await stop(procs.filter((p) => !callers.includes(p)));
}

async function dropEverything(): Promise<void> {
  for (const service of ['catalog', 'vaults', 'deployments', 'scheduler', 'gateway'] as const) {
    await dropDatabase({ MYSQL_URL, MYSQL_POOL_SIZE: 1 }, dbName(service)).catch(() => undefined);
  }
  const nc = await connect({ servers: NATS_URL });
  try {
    await deleteStreams(nc, prefix);
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(`OBJ_${bucketName(prefix)}`).catch(() => undefined);
  } finally {
    await nc.close();
  }
}

// ---------------------------------------------------------------------------------------------
// CPU seconds per process, from /proc (clock ticks of user + system time).

const TICK = 100; // USER_HZ on Linux
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICK;
  } catch {
    return Number.NaN;
  }
}
function pidsOf(exe: string): number[] {
  const out = Bun.spawnSync(['pgrep', '-x', exe]).stdout.toString().trim();
  return out ? out.split('\n').map(Number) : [];
}
function cpuSample(): Map<string, number> {
  const sample = new Map<string, number>();
  for (const p of procs) sample.set(p.name, cpuSeconds(p.child.pid!));
  for (const exe of ['mariadbd', 'nats-server']) {
    sample.set(`${exe} (shared)`, pidsOf(exe).reduce((s, pid) => s + cpuSeconds(pid), 0));
  }
  return sample;
}

// ---------------------------------------------------------------------------------------------
// HTTP through the gateway.

let baseUrl = '';
const HEADERS = { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'managed-agents-2026-04-01', 'content-type': 'application/json' };

async function post(key: string, path: string, body: unknown): Promise<any> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(`${baseUrl}${path}?beta=true`, {
      method: 'POST',
      headers: { ...HEADERS, 'x-api-key': key },
      body: JSON.stringify(body),
    }).catch((err) => err as Error);
    if (!(response instanceof Error) && response.ok) return response.json();
    // 429/503/504 (and a refused connection while starting) are retried, as a client would.
    const status = response instanceof Error ? 0 : response.status;
    const text = response instanceof Error ? response.message : await response.text();
    if (![0, 429, 503, 504].includes(status) || attempt >= 50) throw new Error(`POST ${path}: ${status} ${text}`);
    await Bun.sleep(Math.min(2_000, 50 * attempt));
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
const ms = (x: number) => (Number.isFinite(x) ? `${Math.round(x)} ms` : '-');

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  console.log(
    `fire-lag: ${SCHEDULES} minutely schedules, ${WORKERS} scheduler worker(s), ${TENANTS} tenant(s), window ${MINUTES} min, ` +
      `JITTER_MAX_MS ${JITTER_MAX_MS}; stack fl_${id}_*, BUS_PREFIX ${prefix}, logs in ${logDir}`,
  );
  const passThrough = Object.keys(process.env)
    .filter((k) => /^(SCHEDULER_|TENANT_|MYSQL_POOL|MISFIRE|OUTBOX_|LOG_LEVEL|BUS_TIMEOUT)/.test(k))
    .map((k) => `${k}=${process.env[k]}`);
  if (passThrough.length > 0) console.log(`  settings from the environment: ${passThrough.join(' ')}`);

  // Keys first: the gateway's key store, as `bun run keys create` writes it (same migrations).
  const gatewayDb = await connectDatabase({ MYSQL_URL, MYSQL_POOL_SIZE: 2 }, dbName('gateway'));
  await migrateDatabase(gatewayDb, GATEWAY_MIGRATIONS);
  const store = new ApiKeyStore(gatewayDb.db, systemClock, 0);
  const keys: string[] = [];
  for (let t = 0; t < TENANTS; t++) {
    const key = await store.create({ organizationId: `org_fl${t}`, workspaceId: `wrkspc_fl${t}`, scope: 'read_write', name: 'fire-lag' });
    keys.push(key.secret);
  }
  await gatewayDb.close();

  for (const service of ['catalog', 'vaults', 'deployments'] as const) await startProcess(service, service, {});
  for (let w = 0; w < WORKERS; w++) await startProcess(`scheduler-${w + 1}`, 'scheduler', { SCHEDULER_WORKER_ID: `fl-w${w + 1}` });
  const port = await freePort();
  await startProcess('gateway', 'gateway', { PORT: String(port), HOST: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${port}`;
  for (const p of procs) {
    await waitReady(p.healthPort ? `http://127.0.0.1:${p.healthPort}/readyz` : `${baseUrl}/readyz`, p.name);
  }

  // One agent and one environment per tenant.
  const bodies = await Promise.all(
    keys.map(async (key, t) => {
      const [agent, environment] = await Promise.all([
        post(key, '/v1/agents', { name: `fire-lag agent ${t}`, model: 'claude-opus-4-5' }),
        post(key, '/v1/environments', { name: `fire-lag env ${t}`, config: { type: 'cloud' } }),
      ]);
      return { agent: agent.id as string, environment_id: environment.id as string };
    }),
  );

  // The N deployments, round robin over tenants, CONCURRENCY requests in flight.
  const created: Array<{ id: string; createdAt: number }> = [];
  const createStarted = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < SCHEDULES) {
        const i = next++;
        const t = i % TENANTS;
        const d = await post(keys[t]!, '/v1/deployments', {
          name: `fire-lag ${i}`,
          ...bodies[t],
          initial_events: [{ type: 'user.message', content: [{ type: 'text', text: 'Summarise the overnight alerts' }] }],
          schedule: { type: 'cron', expression: '* * * * *', timezone: 'UTC' },
        });
        created.push({ id: d.id, createdAt: Date.parse(d.created_at) });
      }
    }),
  );
  const createsDone = Date.now();
  const createSeconds = (performance.now() - createStarted) / 1000;
  console.log(`  created ${created.length} deployments through the gateway in ${createSeconds.toFixed(1)} s (${Math.round(created.length / createSeconds)} /s)`);

  const t0 = Math.ceil(createsDone / 1000) * 1000 + SETTLE_S * 1000;
  const t1 = t0 + MINUTES * 60_000;
  console.log(
    `  window: fire times (occurrence + jitter) in [${new Date(t0).toISOString()}, ${new Date(t1).toISOString()}) ` +
      `= last create answered ${new Date(createsDone).toISOString()}, rounded up to a second` + (SETTLE_S ? ` + ${SETTLE_S} s` : ''),
  );

  // Expected occurrences.
  const expected = new Map<string, number>(); // `${deployment}@${occurrence ms}` -> jitter
  for (const d of created) {
    const jitter = scheduleJitterMs(d.id, JITTER_MAX_MS);
    // Occurrences strictly after created_at whose fire time lands in the window.
    let occurrence = Math.max(Math.floor(d.createdAt / 60_000) * 60_000 + 60_000, Math.ceil((t0 - jitter) / 60_000) * 60_000);
    for (; occurrence + jitter < t1; occurrence += 60_000) {
      if (occurrence + jitter >= t0) expected.set(`${d.id}@${occurrence}`, jitter);
    }
  }

  await Bun.sleep(Math.max(0, t0 - Date.now()));
  const cpuBefore = cpuSample();
  const windowStartedAt = performance.now();
  await Bun.sleep(Math.max(0, t1 - Date.now()));
  const cpuAfter = cpuSample();
  const windowSeconds = (performance.now() - windowStartedAt) / 1000;
  await Bun.sleep(GRACE_S * 1000);

  // Runs, straight from the bench's own deployments database.
  const deploymentsDb = await connectDatabase({ MYSQL_URL, MYSQL_POOL_SIZE: 1 }, dbName('deployments'));
  const [rows] = (await deploymentsDb.pool.query(
    `SELECT deployment_id, scheduled_at, created_at, session_id, error_type FROM deployment_runs
      WHERE trigger_type = 'schedule' AND scheduled_at >= ? AND scheduled_at < ?`,
    [new Date(t0 - 60_000), new Date(t1)],
  )) as unknown as [Array<{ deployment_id: string; scheduled_at: Date; created_at: Date; session_id: string | null; error_type: string | null }>];
  await deploymentsDb.close();

  const seen = new Map<string, number>();
  const lags: number[] = [];
  // Lag by slice of the window (by fire time), to tell a catch-up at its start from the steady state.
  const SLICE_MS = 20_000;
  const slices: number[][] = Array.from({ length: Math.ceil((t1 - t0) / SLICE_MS) }, () => []);
  let errors = 0;
  for (const r of rows) {
    const key = `${r.deployment_id}@${r.scheduled_at.getTime()}`;
    const jitter = expected.get(key);
    if (jitter === undefined) continue;
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    if (count > 1) continue;
    if (r.error_type || !r.session_id) errors += 1;
    const lag = r.created_at.getTime() - r.scheduled_at.getTime() - jitter;
    lags.push(lag);
    slices[Math.floor((r.scheduled_at.getTime() + jitter - t0) / SLICE_MS)]!.push(lag);
  }
  const missing = [...expected.keys()].filter((k) => !seen.has(k)).length;
  const duplicates = [...seen.values()].reduce((s, n) => s + (n - 1), 0);
  lags.sort((a, b) => a - b);

  console.log(`\n  expected occurrences ${expected.size}, fired ${seen.size}, missing ${missing}, duplicate ${duplicates}, runs with an error ${errors}`);
  console.log(`  fires in the window: ${(seen.size / windowSeconds).toFixed(0)} /s`);
  console.log(
    `  lag (run created_at - occurrence - jitter): p50 ${ms(percentile(lags, 50))}, p90 ${ms(percentile(lags, 90))}, ` +
      `p99 ${ms(percentile(lags, 99))}, max ${ms(lags[lags.length - 1] ?? Number.NaN)}`,
  );
  slices.forEach((slice, i) => {
    slice.sort((a, b) => a - b);
    console.log(
      `    fire times +${(i * SLICE_MS) / 1000}s..+${((i + 1) * SLICE_MS) / 1000}s: ${slice.length} fires, ` +
        `p50 ${ms(percentile(slice, 50))}, p99 ${ms(percentile(slice, 99))}, max ${ms(slice[slice.length - 1] ?? Number.NaN)}`,
    );
  });
  console.log(`\n  CPU seconds over the ${windowSeconds.toFixed(0)} s window (per fire):`);
  let total = 0;
  for (const [name, after] of cpuAfter) {
    const used = after - (cpuBefore.get(name) ?? after);
    total += used;
    console.log(`    ${name.padEnd(22)} ${used.toFixed(1).padStart(7)} s  ${((used * 1000) / Math.max(1, seen.size)).toFixed(3)} ms`);
  }
  console.log(`    ${'total'.padEnd(22)} ${total.toFixed(1).padStart(7)} s  ${((total * 1000) / Math.max(1, seen.size)).toFixed(3)} ms`);

  // Scheduler metrics, per worker.
  for (const p of procs.filter((x) => x.name.startsWith('scheduler'))) {
    const text = await fetch(`http://127.0.0.1:${p.healthPort}/metrics`).then((r) => r.text()).catch(() => '');
    const fires = text.split('\n').filter((l) => l.startsWith('scheduler_fires_total')).map((l) => l.replace('scheduler_fires_total', '')).join(' ');
    console.log(`  ${p.name}: ${fires || 'no fires'}`);
  }
}

let exitCode = 0;
try {
  await main();
} catch (err) {
  console.error(`fire-lag: ${(err as Error).stack ?? err}`);
  exitCode = 1;
} finally {
  await stopStack();
  if (!KEEP) await dropEverything().catch((err) => console.error(`fire-lag: cleanup: ${(err as Error).message}`));
  else console.log(`  kept databases fl_${id}_* and streams of ${prefix}`);
}
process.exit(exitCode);
