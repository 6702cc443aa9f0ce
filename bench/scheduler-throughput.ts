/**
 * Scheduler throughput: 10,000 active minutely schedules in a scratch database, one worker
 * engine (the real claim/fire/settle loop, system clock), and a fast real NATS responder on
 * the fire subject standing in for the deployments service. Not part of `bun test`.
 *
 *   1. Backlog drain: every row is due at once; how fast one worker fires them all.
 *   2. Steady state: the rows then fire on their own minutely schedules (jitter spreads them
 *      over the minute); how late each fire is past its due time (occurrence + jitter).
 *
 *   bun bench/scheduler-throughput.ts
 *   SCHEDULES=20000 BATCH=100 STEADY_SECONDS=130 bun bench/scheduler-throughput.ts
 */
import { connect } from '@nats-io/transport-node';
import { BusClient } from '@shared/bus/bus-client';
import { BusServer } from '@shared/bus/bus-server';
import { PayloadCodec } from '@shared/bus/payload-codec';
import { deploymentSubjects } from '@shared/bus/subjects/deployments';
import { deleteStreams, ensureStreams } from '@shared/bus/streams';
import { createScheduleCache, scheduleJitterMs } from '@shared/cron';
import { connectDatabase, dropDatabase } from '@shared/db/connect';
import { migrateDatabase } from '@shared/db/migrate';
import { newId, randomBase62 } from '@shared/ids/ids';
import { createLogger, setLogSink } from '@shared/log/logger';
import { bucketName } from '@shared/service-host/service-host';
import type { DeploymentRun, FireDeploymentReply } from '@shared/schema/deployment-run';
import { systemClock } from '@shared/time/clock';
import { loadSchedulerConfig } from '../services/scheduler/src/config';
import { createSchedulerMetrics } from '../services/scheduler/src/metrics';
import type { SchedulerDeps } from '../services/scheduler/src/deps';
import { startDueSchedules } from '../services/scheduler/src/service';
import { SCHEDULER_MIGRATIONS } from '../services/scheduler/src/start-scheduler';

const SCHEDULES = Number(process.env.SCHEDULES ?? 10_000);
const STEADY_SECONDS = Number(process.env.STEADY_SECONDS ?? 70);
const id = randomBase62(8).toLowerCase();
setLogSink(() => undefined);

const config = loadSchedulerConfig({
  MYSQL_URL: process.env.MYSQL_URL,
  NATS_URL: process.env.NATS_URL,
  DATABASE_NAME: `bench_${id}_scheduler`,
  BUS_PREFIX: `bench${id}`,
  SCHEDULER_BATCH_SIZE: process.env.BATCH ?? '50',
  SCHEDULER_WORKER_ID: 'bench',
  LOG_LEVEL: 'error',
});
const logger = createLogger('error');
const nc = await connect({ servers: config.NATS_URL });
await ensureStreams(nc, config.BUS_PREFIX);
const handle = await connectDatabase(config, config.DATABASE_NAME);
const codec = new PayloadCodec(nc, bucketName(config.BUS_PREFIX));

// ---- The stand-in fire handler: idempotent per occurrence, records when each fire arrived.
const arrivals: Array<{ deploymentId: string; scheduledAt: number; at: number }> = [];
const runs = new Set<string>();
const responderNc = await connect({ servers: config.NATS_URL });
const server = new BusServer(responderNc, new PayloadCodec(responderNc, bucketName(config.BUS_PREFIX)), {
  prefix: config.BUS_PREFIX,
  logger,
});
server.handle(deploymentSubjects.fire, async (request): Promise<FireDeploymentReply> => {
  const scheduledAt = request.trigger.type === 'schedule' ? request.trigger.scheduled_at : '';
  arrivals.push({ deploymentId: request.deployment_id, scheduledAt: Date.parse(scheduledAt), at: Date.now() });
  runs.add(`${request.deployment_id}@${scheduledAt}`);
  const run: DeploymentRun = {
    type: 'deployment_run',
    id: newId('deploymentRun'),
    deployment_id: request.deployment_id,
    agent: { type: 'agent', id: 'agent_bench', version: 1 },
    trigger_context: request.trigger,
    session_id: null,
    error: null,
    created_at: new Date().toISOString(),
  };
  return { outcome: 'fired', run };
});

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;

try {
  await migrateDatabase(handle, SCHEDULER_MIGRATIONS);
  // ---- Load: every row's previous-minute occurrence is already past its fire time.
  const now = Date.now();
  const occurrence = Math.floor(now / 60_000) * 60_000 - 60_000;
  const ids = Array.from({ length: SCHEDULES }, (_, i) => `depl_bench${String(i).padStart(6, '0')}${randomBase62(8)}`);
  for (let offset = 0; offset < ids.length; offset += 1_000) {
    const rows = ids.slice(offset, offset + 1_000).map((deploymentId) => [
      deploymentId, 'org_bench', 'wrkspc_bench', '* * * * *', 'UTC', 1, true,
      new Date(occurrence), new Date(occurrence + scheduleJitterMs(deploymentId, config.JITTER_MAX_MS)), new Date(now),
    ]);
    await handle.pool.query(
      'INSERT INTO schedules (deployment_id, organization_id, workspace_id, expression, timezone, revision, active, next_occurrence_at, next_fire_at, updated_at) VALUES ?',
      [rows],
    );
  }

  const client = new BusClient(nc, codec, { prefix: config.BUS_PREFIX, timeoutMs: config.BUS_TIMEOUT_MS, logger });
  const deps: SchedulerDeps = { db: handle.db, clock: systemClock, deployments: client, logger, metrics: createSchedulerMetrics(), schedules: createScheduleCache(), config };

  // ---- 1. Backlog drain.
  const drainStarted = Date.now();
  const dueSchedules = startDueSchedules(deps);
  while (arrivals.length < SCHEDULES) await Bun.sleep(5);
  const drainMs = Date.now() - drainStarted;
  const drainDelays = arrivals.slice(0, SCHEDULES).map((a) => a.at - drainStarted);
  console.log(`scheduler throughput: ${SCHEDULES} active schedules, one worker, batch ${config.SCHEDULER_BATCH_SIZE}, poll ${config.SCHEDULER_POLL_MS} ms`);
  console.log(`  backlog drain: ${SCHEDULES} fires in ${fmt(drainMs)} = ${Math.round((SCHEDULES * 1000) / drainMs)} fires/s`);
  console.log(`    time to fire from release: p50 ${fmt(percentile(drainDelays, 50))}, p99 ${fmt(percentile(drainDelays, 99))}`);

  // ---- 2. Steady state: minutely schedules, jitter spreading each minute's fires.
  const steadyFrom = arrivals.length;
  const steadyStarted = Date.now();
  await Bun.sleep(STEADY_SECONDS * 1000);
  const steadyMs = Date.now() - steadyStarted;
  const dueAt = (a: (typeof arrivals)[number]) => a.scheduledAt + scheduleJitterMs(a.deploymentId, config.JITTER_MAX_MS);
  // Fires that fell due during the drain are catch-up, not steady state.
  const steady = arrivals.slice(steadyFrom).filter((a) => dueAt(a) >= steadyStarted);
  const pastDue = steady.map((a) => a.at - dueAt(a));
  const lag = steady.map((a) => (a.at - a.scheduledAt) / 1000);
  console.log(
    `  steady state (${(steadyMs / 1000).toFixed(0)} s, fires due after the drain): ${steady.length} fires = ${((steady.length * 1000) / steadyMs).toFixed(0)} fires/s`,
  );
  console.log(`    delay past due time (occurrence + jitter): p50 ${fmt(percentile(pastDue, 50))}, p99 ${fmt(percentile(pastDue, 99))}, max ${fmt(Math.max(...pastDue))}`);
  console.log(`    fire lag (fire - listed occurrence, includes 0-60 s jitter): p50 ${percentile(lag, 50).toFixed(1)} s, p99 ${percentile(lag, 99).toFixed(1)} s`);
  console.log(`  repeated fire requests: ${arrivals.length - runs.size}`);
  await dueSchedules.stop();
} finally {
  await server.stop();
  await handle.close();
  await dropDatabase(config, config.DATABASE_NAME);
  await deleteStreams(nc, config.BUS_PREFIX);
  await nc.close();
  await responderNc.close();
}
