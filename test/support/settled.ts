/**
 * Conditions that say asynchronous work has run out, so a test can assert that nothing more
 * happens without sleeping: an outbox with nothing left to publish, a durable consumer with
 * nothing left to deliver or to have acknowledged.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { sql } from 'drizzle-orm';
import { streamName, type StreamKey } from '@shared/bus/streams';
import type { OutboxTable } from '@shared/db/outbox-table';
import type { ServiceHost } from '@shared/service-host/service-host';
import { until, type EventuallyOptions } from './eventually';

/** Every event `service` committed so far has been published: its outbox is empty (the relay deletes what it published). */
export async function outboxRelayed(service: ServiceHost, outbox: OutboxTable, what: string, options: EventuallyOptions = {}): Promise<void> {
  await until(
    `the ${what} outbox to be relayed`,
    async () => {
      const [row] = await service.database.db.select({ n: sql<number>`count(*)` }).from(outbox);
      if (Number(row?.n ?? 0) === 0) return true;
      // Relay now rather than at its next interval.
      service.relay?.poke();
      return false;
    },
    { intervalMs: 10, ...options },
  );
}

/**
 * The durable consumer has been delivered the whole stream as it stands and every delivery was
 * acknowledged: whoever reads through it has handled everything published so far, and a
 * delivery still unacknowledged (say, by a replica that died holding it) would hold this back.
 */
export async function consumerSettled(
  nc: NatsConnection,
  prefix: string,
  key: StreamKey,
  durable: string,
  options: EventuallyOptions = {},
): Promise<void> {
  const jsm = await jetstreamManager(nc);
  const stream = streamName(prefix, key);
  await until(
    `the ${durable} consumer to handle the ${key} stream`,
    async () => {
      const last = (await jsm.streams.info(stream)).state.last_seq;
      const info = await jsm.consumers.info(stream, durable);
      return info.delivered.stream_seq >= last && info.num_ack_pending === 0 && info.num_pending === 0;
    },
    { intervalMs: 10, ...options },
  );
}
