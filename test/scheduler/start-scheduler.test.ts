import { afterAll, beforeAll, expect, test } from 'bun:test';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { deleteStreams, eventSubject, streamName } from '@shared/bus/streams';
import { scheduleJitterMs } from '@shared/cron';
import { dropDatabase } from '@shared/db/connect';
import { newId } from '@shared/ids/ids';
import type { ServiceHost } from '@shared/service-host/service-host';
import type { EventType } from '@shared/bus/event';
import { deploymentEvents, type DeploymentSnapshot } from '@shared/schema/deployment-events';
import { ManualClock } from '@shared/time/clock';
import type { SchedulerConfig } from '../../services/scheduler/src/config';
import { startScheduler } from '../../services/scheduler/src/start-scheduler';
import { until } from '../support/eventually';
import { schedulerTestConfig } from '../support/scheduler/scheduler-harness';
import { startFireResponder, type FireResponder } from '../support/scheduler/fire-responder';
import { snapshot } from '../support/scheduler/snapshot';

/** The process as main.ts starts it: consumer, worker loop and /metrics, on a ManualClock. */
let config: SchedulerConfig;
let runtime: ServiceHost;
let nc: NatsConnection;
let responder: FireResponder;
const clock = new ManualClock('2026-06-01T09:00:00.000Z');

beforeAll(async () => {
  // The production timer: claims ahead (the harness's default is 0, for tests that drain by hand).
  config = await schedulerTestConfig({ HEALTH_PORT: '0', SCHEDULER_POLL_MS: '20', SCHEDULER_LOOKAHEAD_MS: '1000' });
  runtime = await startScheduler(config, { clock });
  nc = await connect({ servers: config.NATS_URL });
  responder = await startFireResponder(nc, config.BUS_PREFIX);
});
afterAll(async () => {
  await runtime?.stop();
  await responder?.stop();
  await dropDatabase(config, config.DATABASE_NAME);
  await deleteStreams(nc, config.BUS_PREFIX);
  await nc?.close();
});

/** A deployment event as the deployments service's relay publishes it. */
const publishSnapshot = (event: EventType, s: DeploymentSnapshot) =>
  jetstream(nc).publish(
    eventSubject(config.BUS_PREFIX, event.subject),
    JSON.stringify({
      id: newId('event'),
      type: event.subject,
      occurred_at: clock.now().toISOString(),
      organization_id: s.organization_id,
      workspace_id: s.workspace_id,
      data: s,
    }),
  );

test('a deployment event becomes a fire, and /metrics reports it', async () => {
  const s = snapshot({ schedule: { expression: '0 10 * * *', timezone: 'Europe/Paris' } });
  await publishSnapshot(deploymentEvents.created, s);
  const stored = async () => {
    const [rows] = await runtime.database.pool.query('SELECT 1 FROM schedules WHERE deployment_id = ?', [s.deployment_id]);
    return (rows as unknown[]).length === 1;
  };
  await until('the schedule row', stored);

  // 10:00 in Paris (CEST) is 08:00Z: tomorrow's, since today's has passed.
  clock.set(new Date(Date.parse('2026-06-02T08:00:00.000Z') + scheduleJitterMs(s.deployment_id, config.JITTER_MAX_MS)));
  await until('the fire', () => responder.runsOf(s.deployment_id).length === 1);
  expect(responder.runsOf(s.deployment_id)).toEqual(['2026-06-02T08:00:00.000Z']);

  // The run is recorded before the reply reaches the worker; the counter follows the reply.
  let metrics = '';
  await until('the fire in /metrics', async () => {
    metrics =  await fetch(`http://127.0.0.1:${runtime.healthPort()}/metrics`).then((r) => r.text());
    return metrics.includes('scheduler_fire_lag_seconds_count 1');
  });
  expect(metrics).toContain('scheduler_fires_total{outcome="fired"} 1');
  expect(metrics).toContain('# TYPE scheduler_due_backlog gauge');
  expect(metrics).toContain('scheduler_skipped_misfires_total 0');
  expect(metrics).toContain('scheduler_fire_lag_seconds_count 1');
});

test('the creation of an unscheduled deployment is never delivered to the scheduler', async () => {
  const jsm = await jetstreamManager(nc);
  const stream = streamName(config.BUS_PREFIX, 'deployments');
  const consumer = () => jsm.consumers.info(stream, config.SCHEDULER_CONSUMER_NAME);
  expect((await consumer()).config.filter_subject).toBe(eventSubject(config.BUS_PREFIX, 'deployments.*'));
  const delivered = (await consumer()).delivered.stream_seq;
  const s = snapshot();
  const ack = await publishSnapshot(deploymentEvents.createdUnscheduled, s);
  expect(ack.seq).toBeGreaterThan(delivered);
  // Stored in the stream, yet nothing pending or delivered for the scheduler's consumer.
  const info = await consumer();
  expect([info.num_pending, info.num_ack_pending, info.delivered.stream_seq]).toEqual([0, 0, delivered]);
});
