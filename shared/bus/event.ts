import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { worstCaseJsonBytes } from './event-size';
import type { StreamKey } from './streams';

/**
 * The most an event (envelope and payload, JSON) may weigh: far below NATS's max_payload (1 MiB
 * by default, and what the relay can publish at all), so no event is ever refused for its size.
 * Events carry identifiers, revisions and the few small fields consumers act on; content a
 * consumer needs (a session's initial events, resources...) is read by id from its owner.
 */
export const MAX_EVENT_BYTES = 64 * 1024;

/** A domain event kind, declared once with its payload schema; publisher and consumers share it. */
export interface EventType<P extends TSchema = TSchema> {
  readonly stream: StreamKey;
  /** e.g. `deployments.updated`; the install prefix is added on the wire. */
  readonly subject: string;
  readonly payload: P;
}

const EnvelopeFields = {
  id: Type.String({ maxLength: 40 }),
  type: Type.String({ maxLength: 200 }),
  occurred_at: Type.String({ maxLength: 40 }),
  organization_id: Type.String({ maxLength: 128 }),
  workspace_id: Type.String({ maxLength: 128 }),
};
const ENVELOPE_BYTES =
  worstCaseJsonBytes(Type.Object(EnvelopeFields, { additionalProperties: false })) + Buffer.byteLength(',"data":');

/**
 * Declares an event. The payload schema must bound every field (see worstCaseJsonBytes) and the
 * largest valid event must fit MAX_EVENT_BYTES; otherwise the declaring module fails to load, so
 * an event that could outgrow the bus never reaches an outbox.
 */
export const defineEvent = <P extends TSchema>(stream: StreamKey, subject: string, payload: P): EventType<P> => {
  let bytes: number;
  try {
    bytes = ENVELOPE_BYTES + worstCaseJsonBytes(payload, 'data');
  } catch (err) {
    throw new Error(`event ${subject}: every payload field needs a size bound; ${(err as Error).message}`);
  }
  if (bytes > MAX_EVENT_BYTES) throw new Error(`event ${subject}: up to ${bytes} bytes, over the ${MAX_EVENT_BYTES}-byte limit`);
  return { stream, subject, payload };
};

export const EventEnvelope = Type.Object({ ...EnvelopeFields, data: Type.Unknown() });
export type EventEnvelope<D = unknown> = Omit<Static<typeof EventEnvelope>, 'data'> & { data: D };
