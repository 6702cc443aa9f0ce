import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { EventEnvelope, EventType } from '@shared/bus/event';
import type { EventConsumer } from '@shared/bus/event-consumer';
import { deleteStreams, ensureStreams, eventSubject, streamName } from '@shared/bus/streams';
import { connectDatabase, dropDatabase, type DatabaseHandle } from '@shared/db/connect';
import { migrateDatabase } from '@shared/db/migrate';
import { newId, randomBase62 } from '@shared/ids/ids';
import { createLogger } from '@shared/log/logger';
import type { DeploymentSnapshot } from '@shared/schema/deployment-events';
import { ManualClock } from '@shared/time/clock';
import { loadSchedulerConfig, type SchedulerConfig } from '../../../services/scheduler/src/config';
import { consumeDeploymentEvents } from '../../../services/scheduler/src/deployment-events-consumer';
import { createScheduleCache } from '@shared/cron/schedule-cache';
import { SCHEDULER_MIGRATIONS } from '../../../services/scheduler/src/start-scheduler';
import { drainWorker, startSchedulerWorker, type SchedulerWorker } from '../../support/scheduler-worker';
import { infrastructure } from '../../support/infrastructure';
import { startFireResponder, type FireResponder } from './fire-responder';

export type Worker = SchedulerWorker;

/**
 * One isolated scheduler world against the real MariaDB and NATS: its own database and bus
 * prefix, the deployment-event consumer, a stand-in deployments service answering the fire
 * subject, and any number of engines (workers), each with its own pool and NATS connection.
 */
export class SchedulerFixture {
  readonly workers = new Set<Worker>();
  private consumer: EventConsumer | undefined;
  private lastSeq = 0;

  private constructor(
    readonly id: string,
    readonly clock: ManualClock,
    readonly config: SchedulerConfig,
    readonly nc: NatsConnection,
    readonly handle: DatabaseHandle,
    readonly responder: FireResponder,
  ) {}

  static async start(options: { start: string; env?: Record<string, string> }): Promise<SchedulerFixture> {
    const infra = await infrastructure();
    const id = randomBase62(10).toLowerCase();
    const config = loadSchedulerConfig({
      NODE_ENV: 'test',
      MYSQL_URL: infra.mysqlUrl,
      NATS_URL: infra.natsUrl,
      BUS_PREFIX: `t${id}`,
      DATABASE_NAME: `t_${id}_scheduler`,
      MYSQL_POOL_SIZE: '4',
      SCHEDULER_WORKER_ID: 'w0',
      ...options.env,
    });
    const nc = await connect({ servers: config.NATS_URL });
    await ensureStreams(nc, config.BUS_PREFIX);
    const handle = await connectDatabase(config, config.DATABASE_NAME);
    await migrateDatabase(handle, SCHEDULER_MIGRATIONS);
    const responder = await startFireResponder(nc, config.BUS_PREFIX);
    const fixture = new SchedulerFixture(id, new ManualClock(options.start), config, nc, handle, responder);
    fixture.consumer = await fixture.startConsumer();
    return fixture;
  }

  private startConsumer(): Promise<EventConsumer> {
    return consumeDeploymentEvents({
      nc: this.nc,
      prefix: this.config.BUS_PREFIX,
      durable: this.config.SCHEDULER_CONSUMER_NAME,
      db: this.handle.db,
      clock: this.clock,
      logger: createLogger('error'),
      schedules: createScheduleCache(),
      jitterMaxMs: this.config.JITTER_MAX_MS,
    });
  }

  /** Stops and restarts the event consumer (a scheduler restart, as far as events go). */
  async restartConsumer(): Promise<void> {
    await this.consumer?.stop();
    this.consumer = await this.startConsumer();
  }

  /** `afterFire` runs after each fire reply, before the batch settles: where a crash hurts most. */
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

  /** Publishes a deployment event to JetStream as the deployments service's outbox relay would. */
  async publish(
    event: EventType,
    snapshot: DeploymentSnapshot,
    options: { occurredAt?: Date; eventId?: string; msgId?: string } = {},
  ): Promise<EventEnvelope<DeploymentSnapshot>> {
    const envelope: EventEnvelope<DeploymentSnapshot> = {
      id: options.eventId ?? newId('event'),
      type: event.subject,
      occurred_at: (options.occurredAt ?? this.clock.now()).toISOString(),
      organization_id: snapshot.organization_id,
      workspace_id: snapshot.workspace_id,
      data: snapshot,
    };
    await this.publishRaw(event.subject, JSON.stringify(envelope), options.msgId);
    return envelope;
  }

  async publishRaw(subject: string, body: string, msgId?: string): Promise<void> {
    const ack = await jetstream(this.nc).publish(eventSubject(this.config.BUS_PREFIX, subject), body, msgId ? { msgID: msgId } : {});
    this.lastSeq = Math.max(this.lastSeq, ack.seq);
  }

  /** Waits until the consumer has handled and acked everything published so far. */
  async eventsSettled(timeoutMs = 15_000): Promise<void> {
    const jsm = await jetstreamManager(this.nc);
    const stream = streamName(this.config.BUS_PREFIX, 'deployments');
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const info = await jsm.consumers.info(stream, this.config.SCHEDULER_CONSUMER_NAME);
      if (info.delivered.stream_seq >= this.lastSeq && info.num_ack_pending === 0 && info.num_pending === 0) return;
      if (Date.now() > deadline) throw new Error(`events not consumed: ${JSON.stringify(info.delivered)} pending ${info.num_ack_pending}`);
      await Bun.sleep(10);
    }
  }

  /** Ticks one worker until it finds nothing claimable; stops early if the worker is killed. */
  drain(worker: Worker): Promise<void> {
    return drainWorker(worker);
  }


  async row(deploymentId: string) {
    const [rows] = await this.handle.pool.query('SELECT * FROM schedules WHERE deployment_id = ?', [deploymentId]);
    return (rows as Array<Record<string, any>>)[0];
  }

  async stop(): Promise<void> {
    for (const worker of [...this.workers]) await worker.close();
    await this.consumer?.stop();
    await this.responder.stop();
    await this.handle.close().catch(() => undefined);
    await dropDatabase(this.config, this.config.DATABASE_NAME).catch(() => undefined);
    await deleteStreams(this.nc, this.config.BUS_PREFIX).catch(() => undefined);
    await this.nc.close();
  }
}

/** A deployment snapshot with sensible defaults; ids are unique per call. */
export function snapshot(overrides: Partial<DeploymentSnapshot> = {}): DeploymentSnapshot {
  return {
    // A real deployment id: the fire request refuses any other form (issue 10, item 7).
    deployment_id: newId('deployment'),
    organization_id: 'org_scheduler_test',
    workspace_id: 'wrkspc_scheduler_test',
    schedule: { expression: '* * * * *', timezone: 'UTC' },
    status: 'active',
    archived: false,
    revision: 1,
    ...overrides,
  };
}

/** Deterministic PRNG (mulberry32), so a failing random schedule of kills can be replayed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
