import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { EventEnvelope, EventType } from '@shared/bus/event';
import { deleteStreams, ensureStreams, eventSubject } from '@shared/bus/streams';
import { dropDatabase, type DatabaseHandle } from '@shared/db/connect';
import { newId } from '@shared/ids/ids';
import type { DeploymentSnapshot } from '@shared/schema/deployment-events';
import { ManualClock } from '@shared/time/clock';
import type { SchedulerConfig } from '../../../services/scheduler/src/config';
import { SchedulerHarness, schedulerTestConfig } from './scheduler-harness';
import type { SchedulerWorker } from './scheduler-worker';
import { startFireResponder, type FireResponder } from './fire-responder';

export type Worker = SchedulerWorker;

/**
 * One isolated scheduler world against the real MariaDB and NATS: its own database and bus
 * prefix, the deployment-event consumer, a stand-in deployments service answering the fire
 * subject, and any number of workers, each with its own pool and NATS connection.
 */
export class SchedulerFixture extends SchedulerHarness {
  private constructor(
    clock: ManualClock,
    config: SchedulerConfig,
    nc: NatsConnection,
    schedulerDb: DatabaseHandle,
    readonly responder: FireResponder,
  ) {
    super(clock, config, nc, schedulerDb);
  }

  static async start(options: { start: string; env?: Record<string, string> }): Promise<SchedulerFixture> {
    const config = await schedulerTestConfig({ MYSQL_POOL_SIZE: '4', SCHEDULER_WORKER_ID: 'w0', ...options.env });
    const { nc, schedulerDb } = await SchedulerHarness.open(config);
    await ensureStreams(nc, config.BUS_PREFIX);
    const responder = await startFireResponder(nc, config.BUS_PREFIX);
    const fixture = new SchedulerFixture(new ManualClock(options.start), config, nc, schedulerDb, responder);
    await fixture.startConsumer();
    return fixture;
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
    await jetstream(this.nc).publish(eventSubject(this.config.BUS_PREFIX, subject), body, msgId ? { msgID: msgId } : {});
  }

  async row(deploymentId: string) {
    const [rows] = await this.schedulerDb.pool.query('SELECT * FROM schedules WHERE deployment_id = ?', [deploymentId]);
    return (rows as Array<Record<string, any>>)[0];
  }

  override async stop(): Promise<void> {
    await super.stop();
    await this.responder.stop();
    await dropDatabase(this.config, this.config.DATABASE_NAME).catch(() => undefined);
    await deleteStreams(this.nc, this.config.BUS_PREFIX).catch(() => undefined);
    await this.nc.close();
  }
}
