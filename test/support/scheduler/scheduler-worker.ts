/**
 * The scheduler's pieces in a test's hands, shared by the scheduler fixture (a stand-in
 * deployments service) and the lifecycle stack (the real one): the deployment-event consumer
 * and any number of workers wired from the same service.ts and handlers as start-scheduler.ts,
 * except that nothing runs by itself: tests move a ManualClock and drain workers round by round,
 * and can crash a worker at a chosen point of its work.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { BusClient } from '@shared/bus/bus-client';
import type { EventConsumer } from '@shared/bus/event-consumer';
import { PayloadCodec } from '@shared/bus/payload-codec';
import { streamName } from '@shared/bus/streams';
import { createScheduleCache } from '@shared/cron';
import { connectDatabase, type DatabaseHandle } from '@shared/db/connect';
import { migrateDatabase } from '@shared/db/migrate';
import { randomBase62 } from '@shared/ids/ids';
import { createLogger } from '@shared/log/logger';
import { bucketName } from '@shared/service-host/service-host';
import type { ManualClock } from '@shared/time/clock';
import type { DeploymentsBus } from '../../../services/scheduler/src/clients/deployments';
import { loadSchedulerConfig, type SchedulerConfig } from '../../../services/scheduler/src/config';
import type { WaitUntil } from '../../../services/scheduler/src/deps';
import { fireDueSchedules, type RoundSummary } from '../../../services/scheduler/src/handlers/fire-due-schedules';
import { measureDueBacklog } from '../../../services/scheduler/src/handlers/measure-due-backlog';
import { createSchedulerMetrics, type SchedulerMetrics } from '../../../services/scheduler/src/metrics';
import type { SchedulerDeps } from '../../../services/scheduler/src/deps';
import { subscribeDeploymentEvents } from '../../../services/scheduler/src/service';
import { SCHEDULER_MIGRATIONS } from '../../../services/scheduler/src/start-scheduler';
import { eventually } from '../eventually';
import { infrastructure } from '../infrastructure';

/**
 * The points of a worker's work where a test may crash it, each counted as it happens:
 * `query` before each SQL statement (inside the claim and settle transactions among them),
 * `fire` before each fire request is sent, `answered` after each fire reply, before its batch
 * settles (where a crash hurts most: the occurrence is recorded but the row not advanced).
 */
export type WorkerStep = 'query' | 'fire' | 'answered';

/** A scheduler worker as a separate replica would be: its own DB pool and NATS connection. */
export interface SchedulerWorker {
  name: string;
  /** One round: claim a batch, fire it, settle it (the due-schedule timer's handler). */
  tick(): Promise<RoundSummary>;
  measureBacklog(): Promise<number>;
  metrics: SchedulerMetrics;
  handle: DatabaseHandle;
  /** Resolves when the worker is killed, so a round hung on a dead connection can be abandoned. */
  killed: Promise<void>;
  isKilled(): boolean;
  /** A crash: every DB connection is cut at once (uncommitted work rolls back), nothing settles. */
  kill(): void;
  close(): Promise<void>;
}

export interface SchedulerWorkerOptions {
  config: SchedulerConfig;
  clock: ManualClock;
  name: string;
  poolSize?: number;
  /** Called at each step of the worker's work (see WorkerStep); may kill the worker there. */
  onStep?: (step: WorkerStep, worker: SchedulerWorker) => void;
  /** How a row claimed ahead waits for its fire time (SCHEDULER_LOOKAHEAD_MS > 0); default: a real timer. */
  waitUntil?: WaitUntil;
  /** Called once when the worker is killed or closed, so its owner can forget it. */
  onGone?: (worker: SchedulerWorker) => void;
}

type CoreConnection = {
  destroy(): void;
  query: (...args: unknown[]) => unknown;
  execute: (...args: unknown[]) => unknown;
};

export async function startSchedulerWorker(options: SchedulerWorkerOptions): Promise<SchedulerWorker> {
  const { config, name } = options;
  const handle = await connectDatabase({ ...config, MYSQL_POOL_SIZE: options.poolSize ?? 3 }, config.DATABASE_NAME);
  const connections: CoreConnection[] = [];
  const step = (s: WorkerStep) => {
    options.onStep?.(s, worker);
    if (killed) throw new Error(`worker ${name} was killed`);
  };
  handle.pool.on('connection', (raw) => {
    const c = raw as unknown as CoreConnection;
    connections.push(c);
    if (!options.onStep) return;
    for (const method of ['query', 'execute'] as const) {
      const original = c[method].bind(c);
      c[method] = (...args) => {
        // A crash here is a crash between two statements: the open transaction rolls back.
        options.onStep!('query', worker);
        return original(...args);
      };
    }
  });
  const nc = await connect({ servers: config.NATS_URL });
  const logger = createLogger('error');
  const client = new BusClient(nc, new PayloadCodec(nc, bucketName(config.BUS_PREFIX)), {
    prefix: config.BUS_PREFIX,
    timeoutMs: config.BUS_TIMEOUT_MS,
    logger,
  });
  const deployments: DeploymentsBus = options.onStep
    ? {
        call: (async (...args: Parameters<BusClient['call']>) => {
          step('fire');
          const reply = await client.call(...args);
          step('answered');
          return reply;
        }) as BusClient['call'],
      }
    : client;
  const deps: SchedulerDeps = {
    db: handle.db,
    clock: options.clock,
    logger,
    deployments,
    metrics: createSchedulerMetrics(),
    schedules: createScheduleCache(),
    config: { ...config, SCHEDULER_WORKER_ID: name },
    waitUntil: options.waitUntil,
  };
  let killed = false;
  let onKilled!: () => void;
  const worker: SchedulerWorker = {
    name,
    tick: fireDueSchedules(deps),
    measureBacklog: measureDueBacklog(deps),
    metrics: deps.metrics,
    handle,
    killed: new Promise<void>((resolve) => (onKilled = resolve)),
    isKilled: () => killed,
    kill: () => {
      if (killed) return;
      killed = true;
      for (const c of connections) c.destroy();
      handle.pool.end().catch(() => undefined);
      // Requests already on the wire may still arrive; a crashed process's would too.
      nc.close().catch(() => undefined);
      options.onGone?.(worker);
      onKilled();
    },
    close: async () => {
      options.onGone?.(worker);
      await handle.close().catch(() => undefined);
      await nc.close().catch(() => undefined);
    },
  };
  return worker;
}

/** Rounds of one worker until it finds nothing claimable; stops early if the worker is killed. */
export async function drainWorker(worker: SchedulerWorker): Promise<void> {
  while (!worker.isKilled()) {
    const tick = worker.tick();
    tick.catch(() => undefined);
    const summary = await Promise.race([tick, worker.killed.then(() => null)]).catch((err) => {
      if (worker.isKilled()) return null;
      throw err;
    });
    if (!summary || summary.claimed === 0) return;
  }
}
