import { jetstreamManager } from '@nats-io/jetstream';
import { streamName } from '@shared/bus/streams';
import { eventually } from './eventually';
import type { Stack } from './stack';

const outboxRows = async (stack: Stack): Promise<number> => {
  const deployments = stack.service('deployments');
  const [rows] = (await deployments.database.pool.query('SELECT COUNT(*) AS n FROM outbox')) as any;
  return Number(rows[0].n);
};

/**
 * Waits until the runtime has nothing left to do: every session notice committed so far is
 * published (the deployments outbox is empty), delivered to the runtime's consumer and acked
 * (none pending, none being handled, none waiting for a redelivery), and nothing was committed
 * meanwhile (the outbox is still empty and the stream did not grow). A drive appends only while
 * it holds an unacked notice, and each append commits a notice of its own, so once this returns
 * no further event can be appended until someone sends something: a test that counts a log's
 * events after it counts them for good, without a sleep deciding anything.
 */
export async function runtimeSettled(stack: Stack, timeoutMs = 20_000): Promise<void> {
  const runtime = stack.service('runtime');
  const jsm = await jetstreamManager(runtime.nc);
  const stream = streamName(stack.env('runtime').BUS_PREFIX!, 'sessions');
  const durable = stack.env('runtime').RUNTIME_CONSUMER_NAME ?? 'runtime-sessions';
  await eventually(
    'the runtime to have handled every session notice',
    async () => {
      if ((await outboxRows(stack)) > 0) {
        stack.service('deployments').relay?.poke();
        return undefined;
      }
      const last = (await jsm.streams.info(stream)).state.last_seq;
      const consumer = await jsm.consumers.info(stream, durable);
      if (consumer.delivered.stream_seq < last || consumer.num_pending > 0 || consumer.num_ack_pending > 0) return undefined;
      if ((await outboxRows(stack)) > 0) return undefined;
      return (await jsm.streams.info(stream)).state.last_seq === last ? true : undefined;
    },
    { timeoutMs, intervalMs: 20 },
  );
}
