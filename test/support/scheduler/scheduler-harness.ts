import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { EventConsumer } from '@shared/bus/event-consumer';
import { createScheduleCache } from '@shared/cron';
import { connectDatabase, type DatabaseHandle } from '@shared/db/connect';
import { migrateDatabase } from '@shared/db/migrate';
import { randomBase62 } from '@shared/ids/ids';
import { createLogger } from '@shared/log/logger';
import type { ManualClock } from '@shared/time/clock';
import { loadSchedulerConfig, type SchedulerConfig } from '../../../services/scheduler/src/config';
import { createSchedulerMetrics } from '../../../services/scheduler/src/metrics';
import type { SchedulerDeps } from '../../../services/scheduler/src/deps';
import { subscribeDeploymentEvents } from '../../../services/scheduler/src/service';
import { SCHEDULER_MIGRATIONS } from '../../../services/scheduler/src/start-scheduler';
import { consumerSettled } from '../settled';
import { infrastructure } from '../infrastructure';
import { drainWorker, startSchedulerWorker, type SchedulerWorker, type SchedulerWorkerOptions } from './scheduler-worker';

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
    await consumerSettled(this.nc, this.config.BUS_PREFIX, 'deployments', this.config.SCHEDULER_CONSUMER_NAME, { timeoutMs });
  }

  /** Closes the workers and the consumer, then the scheduler's connections. */
  async stop(): Promise<void> {
    for (const worker of [...this.workers]) await worker.close();
    await this.stopConsumer();
    await this.schedulerDb.close().catch(() => undefined);
  }
}
