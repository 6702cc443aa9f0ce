import { afterAll, beforeAll, expect, test } from 'bun:test';
import { AckPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { EventEnvelope } from '@shared/bus/event';
import { startEventConsumer, type EventConsumer, type EventDelivery } from '@shared/bus/event-consumer';
import { deleteStreams, ensureStreams, eventSubject, streamName } from '@shared/bus/streams';
import { newId, randomBase62 } from '@shared/ids/ids';
import { createLogger } from '@shared/log/logger';
import { deploymentEvents, type DeploymentSnapshot } from '@shared/schema/deployment-events';
import { until } from '../support/eventually';
import { infrastructure } from '../support/infrastructure';
import { snapshot } from '../support/scheduler/snapshot';

/** The generic consumer helper against real JetStream, with the deployment events as its example. */
let nc: NatsConnection;
const prefix = `t${randomBase62(10).toLowerCase()}`;
beforeAll(async () => {
  nc = await connect({ servers: (await infrastructure()).natsUrl });
  await ensureStreams(nc, prefix);
});
afterAll(async () => {
  await deleteStreams(nc, prefix);
  await nc.close();
});

const envelope = (type: string, data: unknown) => ({
  id: newId('event'),
  type,
  occurred_at: new Date().toISOString(),
  organization_id: 'org_1',
  workspace_id: 'wrkspc_1',
  data,
});
const publish = (subject: string, body: unknown) =>
  jetstream(nc).publish(eventSubject(prefix, subject), typeof body === 'string' ? body : JSON.stringify(body));

/**
 * The durable's state on the server: how many deliveries it made, and whether it has delivered
 * the whole stream (terminated messages stay counted as ack-pending, so that count says nothing).
 */
async function consumerState(durable: string) {
  const jsm = await jetstreamManager(nc);
  const stream = streamName(prefix, 'deployments');
  const info = await jsm.consumers.info(stream, durable);
  const last = (await jsm.streams.info(stream)).state.last_seq;
  return { deliveries: info.delivered.consumer_seq, caughtUp: info.delivered.stream_seq >= last && info.num_pending === 0 };
}

function consume(
  durable: string,
  handler: (e: EventEnvelope<DeploymentSnapshot>, d: EventDelivery) => Promise<void>,
  filterSubject = 'deployments.>',
): Promise<EventConsumer> {
  return startEventConsumer({
    nc,
    prefix,
    events: Object.values(deploymentEvents),
    durable,
    filterSubject,
    logger: createLogger('error'),
    handler,
    retryBaseMs: 20,
    ackWaitMs: 2_000,
  });
}

test('validates, skips unknown kinds, terminates poison messages, redelivers after a failure, acks once handled', async () => {
  const seen: Array<{ id: string; delivery: number }> = [];
  let failuresLeft = 2;
  const consumer = await consume('c-basic', async (event, delivery) => {
    if (event.data.deployment_id === 'depl_flaky' && failuresLeft-- > 0) throw new Error('database unavailable');
    seen.push({ id: event.data.deployment_id, delivery: delivery.deliveryCount });
  });
  await publish('deployments.created', 'not json');
  await publish('deployments.created', envelope('deployments.created', { deployment_id: 'missing fields' }));
  await publish('deployments.runs.recorded', envelope('deployments.runs.recorded', { anything: true }));
  await publish('deployments.created', envelope('deployments.created', snapshot({ deployment_id: 'depl_flaky' })));
  await publish('deployments.updated', envelope('deployments.updated', snapshot({ deployment_id: 'depl_fine', revision: 2 })));
  await until('two handled events', () => seen.length === 2);
  expect(seen.sort((a, b) => a.id.localeCompare(b.id))).toEqual([
    { id: 'depl_fine', delivery: 1 },
    { id: 'depl_flaky', delivery: 3 },
  ]);
  await consumer.stop();

  // Everything was acked or terminated: a restarted consumer gets nothing again, only what comes next.
  const before = await consumerState('c-basic');
  const again: string[] = [];
  const restarted = await consume('c-basic', async (event) => void again.push(event.data.deployment_id));
  await publish('deployments.paused', envelope('deployments.paused', snapshot({ deployment_id: 'depl_after', status: 'paused' })));
  await until('the event after the restart', () => again.length === 1);
  expect(again).toEqual(['depl_after']);
  expect(await consumerState('c-basic')).toEqual({ deliveries: before.deliveries + 1, caughtUp: true });
  await restarted.stop();
});

test('stop lets the message in hand finish and be acked; the unhandled rest goes to the next consumer', async () => {
  const first: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  // A fresh durable replays the stream; the first test's events are not this test's business.
  const mine = (e: EventEnvelope<DeploymentSnapshot>) => /^depl_[0-9]$/.test(e.data.deployment_id);
  let entered!: () => void;
  const inHand = new Promise<void>((resolve) => (entered = resolve));
  const consumer = await consume('c-stop', async (event) => {
    if (!mine(event)) return;
    if (first.length === 0) {
      entered();
      await gate;
    }
    first.push(event.data.deployment_id);
  });
  for (let i = 0; i < 5; i++) await publish('deployments.created', envelope('deployments.created', snapshot({ deployment_id: `depl_${i}` })));
  // depl_0 in the handler, the other four delivered into the consumer's buffer.
  await inHand;
  await until('the rest to be buffered', async () => (await consumerState('c-stop')).caughtUp);
  const stopping = consumer.stop();
  release();
  await stopping;
  expect(first).toEqual(['depl_0']);

  const second: string[] = [];
  const next = await consume('c-stop', async (event) => void (mine(event) && second.push(event.data.deployment_id)));
  // Delivery is at least once: handed-back messages can first land on the closed consumer's
  // still-open pull request and come back after the ack wait, possibly more than once.
  await until('the four handed-back events', () => new Set(second).size === 4, { timeoutMs: 10_000 });
  expect([...new Set(second)].sort()).toEqual(['depl_1', 'depl_2', 'depl_3', 'depl_4']);
  expect(second).not.toContain('depl_0');
  await next.stop();
});

test('a durable whose filter changed with a release is moved to the new filter, skipping nothing after its acks', async () => {
  const mine = (e: EventEnvelope<DeploymentSnapshot>) => e.data.deployment_id.startsWith('depl_moved');
  const before: string[] = [];
  const wide = await consume('c-moved', async (e) => void (mine(e) && before.push(e.data.deployment_id)));
  await publish('deployments.created', envelope('deployments.created', snapshot({ deployment_id: 'depl_moved_1' })));
  await until('the first event', () => before.includes('depl_moved_1'));
  await wide.stop();

  // While no consumer runs: one event the narrower filter takes, one it does not.
  await publish('deployments.updated', envelope('deployments.updated', snapshot({ deployment_id: 'depl_moved_2', revision: 2 })));
  await publish('deployments.created.unscheduled', envelope('deployments.created.unscheduled', snapshot({ deployment_id: 'depl_moved_3' })));
  const after: string[] = [];
  const narrow = await consume('c-moved', async (e) => void (mine(e) && after.push(e.data.deployment_id)), 'deployments.*');
  await publish('deployments.paused', envelope('deployments.paused', snapshot({ deployment_id: 'depl_moved_4', status: 'paused' })));
  await until('the events after the move', () => after.includes('depl_moved_2') && after.includes('depl_moved_4'));
  expect(after).not.toContain('depl_moved_3');
  const info = await (await jetstreamManager(nc)).consumers.info(streamName(prefix, 'deployments'), 'c-moved');
  expect(info.config.filter_subject).toBe(eventSubject(prefix, 'deployments.*'));
  await narrow.stop();
});

test("a durable may hold many deliveries at once across its replicas (not the server's default 1,000); an older durable is brought up to date", async () => {
  const jsm = await jetstreamManager(nc);
  const stream = streamName(prefix, 'deployments');
  // As an earlier release made it: the server's defaults.
  await jsm.consumers.add(stream, { durable_name: 'c-pending', ack_policy: AckPolicy.Explicit, filter_subject: eventSubject(prefix, 'deployments.>') });
  expect((await jsm.consumers.info(stream, 'c-pending')).config.max_ack_pending).toBe(1000);
  const consumer = await consume('c-pending', async () => undefined);
  expect((await jsm.consumers.info(stream, 'c-pending')).config.max_ack_pending).toBe(100_000);
  await consumer.stop();
});
