import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { streamName, type StreamKey } from '@shared/bus/streams';
import { eventually } from './eventually';
import { infrastructure } from './infrastructure';
import type { Stack } from './stack';

export interface StreamMessage {
  subject: string;
  /** The message id JetStream deduplicated on (the outbox's event id). */
  msgId: string | undefined;
  data: any;
}

/** Every message of one JetStream stream, in order, read straight from the stream as a consumer would. */
export async function readStream(nc: NatsConnection, stream: string): Promise<StreamMessage[]> {
  const jsm = await jetstreamManager(nc);
  const state = (await jsm.streams.info(stream)).state;
  const out: StreamMessage[] = [];
  for (let seq = state.first_seq; seq <= state.last_seq && state.messages > 0; seq++) {
    const msg = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
    if (msg) out.push({ subject: msg.subject, msgId: msg.header?.get('Nats-Msg-Id') || undefined, data: msg.json() });
  }
  return out;
}

/**
 * Every event one service of the stack has published, once its outbox is empty (a published event
 * leaves the outbox, so the stream is where a test reads what a change announced).
 */
export async function publishedEvents(stack: Stack, service: 'deployments' | 'vaults' | 'catalog', stream: StreamKey): Promise<StreamMessage[]> {
  const runtime = stack.service(service);
  await eventually(
    `the ${service} outbox to be relayed`,
    async () => {
      const [rows] = (await runtime.database.pool.query('SELECT COUNT(*) AS n FROM outbox')) as any;
      if (Number(rows[0].n) === 0) return true;
      runtime.relay?.poke();
      return undefined;
    },
    { timeoutMs: 20_000, intervalMs: 10 },
  );
  const nc = await connect({ servers: (await infrastructure()).natsUrl });
  try {
    return await readStream(nc, streamName(stack.env(service).BUS_PREFIX!, stream));
  } finally {
    await nc.close();
  }
}
