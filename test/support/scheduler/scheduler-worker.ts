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
import { bucketName } from '@shared/runtime/service-runtime';
import type { ManualClock } from '@shared/time/clock';
import type { DeploymentsBus } from '../../../services/scheduler/src/clients/deployments';
import { loadSchedulerConfig, type SchedulerConfig } from '../../../services/scheduler/src/config';
import { fireDueSchedules, type RoundSummary, type WaitUntil } from '../../../services/scheduler/src/handlers/fire-due-schedules';
import { measureDueBacklog } from '../../../services/scheduler/src/handlers/measure-due-backlog';
import { createSchedulerMetrics, type SchedulerMetrics } from '../../../services/scheduler/src/metrics';
import { subscribeDeploymentEvents, type SchedulerDeps } from '../../../services/scheduler/src/service';
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

/**
 * Crashes workers at planned points, counted in steps of their work (never by a timer), so a
 * seeded plan replays the same kind of crash at the same point of a batch. A crash is armed per
 * slot (a worker and its restarts) and fires once, on the n-th matching step from arming.
 *
 * Optionally at most `limit.kills` crashes in any `limit.steps` consecutive steps of the test's
 * clock (see nextStep): a batch a crash leaves claimed waits out its lease, and a test that
 * expects every occurrence to run must not let a streak of crashes hold one batch until its
 * next occurrence is due (the misfire rule then rightly skips the older one).
 */
export class CrashPlan {
  kills = 0;
  /** Crashes the limit refused to arm. */
  refused = 0;
  private readonly armed = new Map<number, { step: WorkerStep; left: number }>();
  private step = 0;
  /** The step (of nextStep) in which each kill happened. */
  private readonly killSteps: number[] = [];

  constructor(private readonly limit?: { kills: number; steps: number }) {}

  /** Arms a crash for a slot's worker, unless the limit forbids another one now; says which. */
  arm(slot: number, step: WorkerStep, n: number): boolean {
    if (this.limit) {
      const recent = this.killSteps.filter((s) => s > this.step - this.limit!.steps).length;
      if (recent >= this.limit.kills) {
        this.refused += 1;
        return false;
      }
    }
    this.armed.set(slot, { step, left: n });
    return true;
  }

  /** The test's clock moved on: a crash armed before that its worker did not reach is dropped. */
  nextStep(): void {
    this.step += 1;
    this.armed.clear();
  }

  /** The worker option of one slot's worker. */
  onStep(slot: number): (step: WorkerStep, worker: SchedulerWorker) => void {
    return (step, worker) => {
      const crash = this.armed.get(slot);
      if (!crash || crash.step !== step || worker.isKilled()) return;
      if (--crash.left > 0) return;
      this.armed.delete(slot);
      this.kills += 1;
      this.killSteps.push(this.step);
      worker.kill();
    };
  }
}

/** A scheduler configuration for one isolated test world: its own database and bus prefix. */
export async function schedulerTestConfig(env: Record<string, string> = {}): Promise<SchedulerConfig> {
  const infra = await infrastructure();
  const id = randomBase62(10).toLowerCase();
  return loadSchedulerConfig({
    NODE_ENV: 'test',
    MYSQL_URL: infra.mysqlUrl,
    NATS_URL: infra.natsUrl,
    BUS_PREFIX: `t${id}`,
    DATABASE_NAME: `t_${id}_scheduler`,
    // Workers here are drained round by round on a ManualClock: a round claims only rows already
    // due. Claiming ahead (the production default) is tested with its own wait (lookahead.test.ts).
    SCHEDULER_LOOKAHEAD_MS: '0',
    ...env,
  });
}

/**
 * The scheduler side of a test world: its migrated database, the deployment-event consumer and
 * the workers. The fixture and the lifecycle stack extend it with what publishes the events.
 */
export class SchedulerHarness {
  readonly workers = new Set<SchedulerWorker>();
  private consumer: EventConsumer | undefined;

  protected constructor(
    readonly clock: ManualClock,
    readonly config: SchedulerConfig,
    readonly nc: NatsConnection,
    /** The scheduler's database, as the consumer writes it. */
    readonly schedulerDb: DatabaseHandle,
  ) {}

  /** Connects to the scheduler's database (migrated) and to NATS. */
  protected static async open(config: SchedulerConfig): Promise<{ nc: NatsConnection; schedulerDb: DatabaseHandle }> {
    const nc = await connect({ servers: config.NATS_URL });
    const schedulerDb = await connectDatabase(config, config.DATABASE_NAME);
    await migrateDatabase(schedulerDb, SCHEDULER_MIGRATIONS);
    return { nc, schedulerDb };
  }

  /** The scheduler's deployment-event consumer; stopped, the scheduler works from what it last heard. */
  async startConsumer(): Promise<void> {
    if (this.consumer) return;
    const deps: SchedulerDeps = {
      db: this.schedulerDb.db,
      clock: this.clock,
      logger: createLogger('error'),
      // The consumer never fires; workers do.
      deployments: { call: () => Promise.reject(new Error('the event consumer makes no bus calls')) },
      metrics: createSchedulerMetrics(),
      schedules: createScheduleCache(),
      config: this.config,
    };
    this.consumer = await subscribeDeploymentEvents(deps, {
      nc: this.nc,
      prefix: this.config.BUS_PREFIX,
      durable: this.config.SCHEDULER_CONSUMER_NAME,
    });
  }

  async stopConsumer(): Promise<void> {
    await this.consumer?.stop();
    this.consumer = undefined;
  }

  /** Stops and restarts the event consumer (a scheduler restart, as far as events go). */
  async restartConsumer(): Promise<void> {
    await this.stopConsumer();
    await this.startConsumer();
  }

  /** A scheduler worker with its own pool and NATS connection, like a separate replica. */
  async startWorker(
    name = `w${this.workers.size}`,
    options: Pick<SchedulerWorkerOptions, 'poolSize' | 'onStep' | 'waitUntil'> = {},
  ): Promise<SchedulerWorker> {
    const worker = await startSchedulerWorker({
      config: this.config,
      clock: this.clock,
      name,
      ...options,
      onGone: (gone) => this.workers.delete(gone),
    });
    this.workers.add(worker);
    return worker;
  }

  /** Rounds of one worker until it finds nothing claimable; stops early if the worker is killed. */
  drain(worker: SchedulerWorker): Promise<void> {
    return drainWorker(worker);
  }

  /** Moves the clock in steps, draining every worker after each, until `iso`. */
  async runUntil(iso: string, stepMs: number): Promise<void> {
    while (this.clock.now().getTime() < Date.parse(iso)) {
      this.clock.set(new Date(Math.min(this.clock.now().getTime() + stepMs, Date.parse(iso))));
      for (const worker of [...this.workers]) await this.drain(worker);
    }
  }

  /** Waits until the consumer has applied and acked every deployment event in the stream. */
  async eventsSettled(timeoutMs = 15_000): Promise<void> {
    const jsm = await jetstreamManager(this.nc);
    const stream = streamName(this.config.BUS_PREFIX, 'deployments');
    await eventually(
      'the deployment events to be consumed',
      async () => {
        const last = (await jsm.streams.info(stream)).state.last_seq;
        const info = await jsm.consumers.info(stream, this.config.SCHEDULER_CONSUMER_NAME);
        return info.delivered.stream_seq >= last && info.num_ack_pending === 0 && info.num_pending === 0 ? true : undefined;
      },
      { timeoutMs, intervalMs: 10 },
    );
  }

  /** Closes the workers and the consumer, then the scheduler's connections. */
  async stop(): Promise<void> {
    for (const worker of [...this.workers]) await worker.close();
    await this.stopConsumer();
    await this.schedulerDb.close().catch(() => undefined);
  }
}
