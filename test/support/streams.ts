import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';

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
