/**
 * The whole product over HTTP with the scheduler's engine in the test's hands: the stack's
 * catalog, deployments and vaults services (the REAL fire path) and gateway on a ManualClock,
 * plus the scheduler's own pieces (its database, the deployment-event consumer, any number of
 * engines) wired the way start-scheduler.ts wires them, except that nothing ticks by itself:
 * tests move the clock and call `drain`, as the scheduler tests do, and can crash a worker.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { isNull, sql } from 'drizzle-orm';
import { systemContext } from '@shared/bus/call-context';
import type { EventConsumer } from '@shared/bus/event-consumer';
import { deploymentSubjects } from '@shared/bus/subjects/deployments';
import { streamName, type StreamKey } from '@shared/bus/streams';
import { connectDatabase, type DatabaseHandle } from '@shared/db/connect';
import { migrateDatabase } from '@shared/db/migrate';
import { newId } from '@shared/ids/ids';
import { createLogger } from '@shared/log/logger';
import type { FireDeploymentReply } from '@shared/schema/deployment-run';
import type { Tenant } from '@shared/schema/tenant';
import { ManualClock } from '@shared/time/clock';
import { outbox as deploymentsOutbox } from '../../../services/deployments/src/db/schema';
import { loadSchedulerConfig, type SchedulerConfig } from '../../../services/scheduler/src/config';
import { consumeDeploymentEvents } from '../../../services/scheduler/src/deployment-events-consumer';
import { createScheduleCache } from '@shared/cron/schedule-cache';
import { SCHEDULER_MIGRATIONS } from '../../../services/scheduler/src/start-scheduler';
import { drainWorker, startSchedulerWorker, type SchedulerWorker } from '../../support/scheduler-worker';
import { apiClient, type ApiClient } from '../../support/api';
import { Stack } from '../../support/stack';

export type Worker = SchedulerWorker;

export interface Tenant$ {
  api: ApiClient;
  tenant: Tenant;
}

export class LifecycleStack {
  readonly workers = new Set<Worker>();
  private consumer: EventConsumer | undefined;

  private constructor(
    readonly stack: Stack,
    readonly clock: ManualClock,
    readonly config: SchedulerConfig,
    readonly nc: NatsConnection,
    readonly schedulerDb: DatabaseHandle,
  ) {}

  static async start(options: { start: string; env?: Record<string, string> }): Promise<LifecycleStack> {
    const clock = new ManualClock(options.start);
    const stack = await Stack.start({ clock, services: ['catalog', 'deployments', 'vaults'], env: { LOG_LEVEL: 'error' } });
    try {
      const config = loadSchedulerConfig({
        ...stack.env('scheduler'),
        SCHEDULER_WORKER_ID: 'w0',
        MYSQL_POOL_SIZE: '4',
        ...options.env,
      });
      const nc = await connect({ servers: config.NATS_URL });
      const schedulerDb = await connectDatabase(config, config.DATABASE_NAME);
      await migrateDatabase(schedulerDb, SCHEDULER_MIGRATIONS);
      const world = new LifecycleStack(stack, clock, config, nc, schedulerDb);
      await world.startConsumer();
      return world;
    } catch (err) {
      await stack.stop();
      throw err;
    }
  }

  /** The scheduler's deployment-event consumer; stopped, the scheduler works from what it last heard. */
  async startConsumer(): Promise<void> {
    if (this.consumer) return;
    this.consumer = await consumeDeploymentEvents({
      nc: this.nc,
      prefix: this.config.BUS_PREFIX,
      durable: this.config.SCHEDULER_CONSUMER_NAME,
      db: this.schedulerDb.db,
      clock: this.clock,
      logger: createLogger('error'),
      schedules: createScheduleCache(),
      jitterMaxMs: this.config.JITTER_MAX_MS,
    });
  }

  async stopConsumer(): Promise<void> {
    await this.consumer?.stop();
    this.consumer = undefined;
  }

  /** A new tenant with its own read-write key. */
  async tenant(): Promise<Tenant$> {
    const key = await this.stack.createKey();
    return { api: apiClient(this.stack.url, key.secret), tenant: key.tenant };
  }

  /** A scheduler worker with its own pool and NATS connection, like a separate replica. */
  async startWorker(name = `w${this.workers.size}`, options: { poolSize?: number; afterFire?: () => void } = {}): Promise<Worker> {
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

  /**
   * Waits until every deployment event committed so far is in JetStream (the outbox is empty)
   * and the scheduler's consumer has applied and acked all of it.
   */
  async eventsSettled(timeoutMs = 20_000): Promise<void> {
    await this.outboxEmpty(timeoutMs);
    const deadline = Date.now() + timeoutMs;
    const jsm = await jetstreamManager(this.nc);
    const stream = streamName(this.config.BUS_PREFIX, 'deployments');
    for (;;) {
      const last = (await jsm.streams.info(stream)).state.last_seq;
      const info = await jsm.consumers.info(stream, this.config.SCHEDULER_CONSUMER_NAME);
      if (info.delivered.stream_seq >= last && info.num_ack_pending === 0 && info.num_pending === 0) return;
      if (Date.now() > deadline) throw new Error(`deployment events not consumed: ${JSON.stringify(info.delivered)}`);
      await Bun.sleep(10);
    }
  }

  /** Ticks one worker until it finds nothing claimable; stops early if the worker is killed. */
  drain(worker: Worker): Promise<void> {
    return drainWorker(worker);
  }


  /** Moves the clock in steps, draining every worker after each, until `iso`. */
  async runUntil(iso: string, stepMs: number): Promise<void> {
    while (this.clock.now().getTime() < Date.parse(iso)) {
      this.clock.set(new Date(Math.min(this.clock.now().getTime() + stepMs, Date.parse(iso))));
      for (const worker of [...this.workers]) await this.drain(worker);
    }
  }

  /** Fires through the bus exactly as a scheduler worker does. */
  fire(tenant: Tenant, deploymentId: string, scheduledAt: string): Promise<FireDeploymentReply> {
    return this.stack.service('deployments').client.call(deploymentSubjects.fire, systemContext(newId('request'), tenant), {
      deployment_id: deploymentId,
      trigger: { type: 'schedule', scheduled_at: scheduledAt },
    });
  }

  /** Every event of one stream, in order (read straight from JetStream, as a consumer would). */
  async streamEvents(key: StreamKey): Promise<Array<{ subject: string; data: any }>> {
    if (key === 'deployments' || key === 'sessions') await this.outboxEmpty();
    const jsm = await jetstreamManager(this.nc);
    const stream = streamName(this.config.BUS_PREFIX, key);
    const state = (await jsm.streams.info(stream)).state;
    const out: Array<{ subject: string; data: any }> = [];
    for (let seq = state.first_seq; seq <= state.last_seq && state.messages > 0; seq++) {
      const msg = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
      if (msg) out.push({ subject: msg.subject, data: msg.json() });
    }
    return out;
  }

  /** Every event the deployments service committed so far has been published. */
  private async outboxEmpty(timeoutMs = 20_000): Promise<void> {
    const deployments = this.stack.service('deployments');
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const [row] = await deployments.database.db
        .select({ n: sql<number>`count(*)` })
        .from(deploymentsOutbox)
        .where(isNull(deploymentsOutbox.publishedAt));
      if (Number(row?.n ?? 0) === 0) return;
      deployments.relay?.poke();
      if (Date.now() > deadline) throw new Error('events not relayed');
      await Bun.sleep(10);
    }
  }

  async stop(): Promise<void> {
    for (const worker of [...this.workers]) await worker.close();
    await this.consumer?.stop();
    await this.schedulerDb.close().catch(() => undefined);
    await this.nc.close().catch(() => undefined);
    await this.stack.stop();
  }
}
