import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, JetStreamApiError, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import { nanos, type NatsConnection } from '@nats-io/transport-node';
import type { Static, TSchema } from '@sinclair/typebox';
import type { Logger } from '../log/logger';
import { eventDeliveries } from '../telemetry/event-deliveries';
import { Telemetry } from '../telemetry/telemetry';
import { isValid } from '../validation/validate';
import { EventEnvelope, type EventType } from './event';
import { eventSubject, STREAMS, streamName } from './streams';

export interface EventDelivery {
  /** The subject on the wire (with the install prefix). */
  subject: string;
  /** 1 on first delivery; more after a nak, a lapsed ack wait or a restart. */
  deliveryCount: number;
  streamSequence: number;
}

export type EventHandler<P extends TSchema> = (event: EventEnvelope<Static<P>>, delivery: EventDelivery) => Promise<void>;

export interface EventConsumerOptions<P extends TSchema> {
  nc: NatsConnection;
  prefix: string;
  /**
   * The event kinds handled; with several payload schemas, P is their union and the handler is
   * given any of their payloads (Static of the union). Other kinds the filter lets through are
   * acked and ignored.
   */
  events: readonly EventType<P>[];
  /** Durable consumer name; replicas of one service share it and split the messages. */
  durable: string;
  /** Relative subject filter (e.g. `deployments.>`); default: everything in the events' stream. */
  filterSubject?: string;
  /**
   * Must be idempotent: delivery is at least once. Resolve only once the effect is committed;
   * the message is acked after that, and a rejection redelivers it after a delay.
   */
  handler: EventHandler<P>;
  logger: Logger;
  /** How long a delivered message may stay unacknowledged before the server redelivers it. */
  ackWaitMs?: number;
  /** Redelivery delay after a failed attempt: doubles from this... */
  retryBaseMs?: number;
  /** ...up to this. */
  retryMaxMs?: number;
  /** Messages pulled ahead of the handler. */
  prefetch?: number;
  /**
   * Messages handled at once in this process (default 1: in order). Above 1, a handler that runs
   * long tells the server it is alive (`working`) every third of the ack wait, so a slow handler
   * (a model call) keeps its message while a dead process's messages come back after the ack wait.
   */
  concurrency?: number;
  /** The service's traces: each handling is a span linked to the trace that published the event. */
  telemetry?: Telemetry;
}

export interface EventConsumer {
  /** Stops pulling, lets the message being handled finish and ack, hands buffered ones back. */
  stop(): Promise<void>;
}

/**
 * A typed durable JetStream consumer with explicit acks. Each message is validated against
 * the envelope and its event kind's payload schema; a message that can never be valid is
 * terminated (retrying cannot fix it) and logged as an error. Messages are handled one at a
 * time per process.
 */
export async function startEventConsumer<P extends TSchema>(options: EventConsumerOptions<P>): Promise<EventConsumer> {
  const { stream, filter } = consumedStream(options);
  const ackWaitMs = options.ackWaitMs ?? 30_000;
  await ensureDurable(options.nc, stream, { durable: options.durable, filter, ackWaitMs }, options.logger);

  const logger = options.logger.child({ consumer: options.durable });
  const consumer = await jetstream(options.nc).consumers.get(stream, options.durable);
  const messages = await consumer.consume({ max_messages: options.prefetch ?? 20 });
  const handle = messageHandler(options, logger);
  let stopping = false;

  const concurrency = options.concurrency ?? 1;
  const inFlight = new Set<Promise<void>>();
  const handleAlive = async (msg: JsMsg): Promise<void> => {
    const beat = setInterval(() => msg.working(), Math.max(250, Math.floor(ackWaitMs / 3)));
    try {
      await handle(msg);
    } finally {
      clearInterval(beat);
    }
  };
  const loop = (async () => {
    for await (const msg of messages) {
      // Buffered messages go back at once, for another replica or the next start.
      if (stopping) {
        msg.nak();
        continue;
      }
      if (concurrency === 1) {
        await handle(msg);
        continue;
      }
      while (inFlight.size >= concurrency) await Promise.race(inFlight);
      const running: Promise<void> = handleAlive(msg).finally(() => inFlight.delete(running));
      inFlight.add(running);
    }
    await Promise.all(inFlight);
  })().catch((err) => logger.error('event consumer ended', { error: err }));
  logStatus(messages, logger);

  return {
    stop: async () => {
      if (stopping) return;
      stopping = true;
      await messages.close();
      await loop;
    },
  };
}

/** The stream the events come from (one for all of them) and the consumer's filter in it. */
function consumedStream<P extends TSchema>(options: EventConsumerOptions<P>): { stream: string; filter: string } {
  const first = options.events[0];
  if (!first) throw new Error('startEventConsumer needs at least one event type');
  if (options.events.some((e) => e.stream !== first.stream)) throw new Error('all events must come from one stream');
  return {
    stream: streamName(options.prefix, first.stream),
    filter: eventSubject(options.prefix, options.filterSubject ?? STREAMS[first.stream].subjects),
  };
}

/**
 * What is done with one message: terminated when it can never be valid, acked and ignored when
 * it is no kind handled, else handled in a span and acked, or redelivered after a growing delay.
 */
function messageHandler<P extends TSchema>(options: EventConsumerOptions<P>, logger: Logger): (msg: JsMsg) => Promise<void> {
  const byType = new Map(options.events.map((e) => [e.subject, e]));
  const deliveries = (options.telemetry ?? Telemetry.detached()).seam(eventDeliveries);
  return async (msg) => {
    const delivery = { subject: msg.subject, deliveryCount: msg.info.deliveryCount, streamSequence: msg.seq };
    let envelope: unknown;
    try {
      envelope = msg.json();
    } catch {
      envelope = undefined;
    }
    if (!isValid(EventEnvelope, envelope)) {
      logger.error('malformed event terminated', delivery);
      msg.term('malformed envelope');
      return;
    }
    const type = byType.get(envelope.type);
    if (!type) {
      msg.ack();
      return;
    }
    if (!isValid(type.payload, envelope.data)) {
      logger.error('event payload breaks its schema; terminated', { ...delivery, event_id: envelope.id, type: envelope.type });
      msg.term('invalid payload');
      return;
    }
    const observation = deliveries.begin(envelope.type, options.durable, msg.headers);
    try {
      await observation.run(() => options.handler(envelope as EventEnvelope<Static<P>>, delivery));
      observation.end('ok');
      msg.ack();
    } catch (err) {
      observation.end('api_error');
      const delay = Math.min(
        options.retryMaxMs ?? 60_000,
        (options.retryBaseMs ?? 1_000) * 2 ** Math.min(20, delivery.deliveryCount - 1),
      );
      logger.warn('event handler failed; redelivering', { ...delivery, event_id: envelope.id, retry_in_ms: delay, error: err });
      msg.nak(delay);
    }
  };
}

/** Logs the consumer's troubles the server reports (deleted, not found, heartbeats missed). */
function logStatus(messages: ConsumerMessages, logger: Logger): void {
  (async () => {
    for await (const status of messages.status()) {
      if (status.type === 'consumer_deleted' || status.type === 'consumer_not_found' || status.type === 'heartbeats_missed') {
        logger.warn('event consumer status', { status: status.type });
      }
    }
  })().catch(() => undefined);
}

/** Deliveries in flight across a consumer's replicas: each replica bounds its own by its concurrency. */
const MAX_ACK_PENDING = 100_000;

/** Creates the durable consumer, or brings an existing one's settings up to date. */
async function ensureDurable(
  nc: NatsConnection,
  stream: string,
  settings: { durable: string; filter: string; ackWaitMs: number },
  logger: Logger,
): Promise<void> {
  const jsm = await jetstreamManager(nc);
  const config = {
    durable_name: settings.durable,
    ack_policy: AckPolicy.Explicit,
    filter_subject: settings.filter,
    ack_wait: nanos(settings.ackWaitMs),
    max_deliver: -1,
    // What all replicas together may hold unacknowledged: a runtime replica holds a session's notice
    // through its model request, up to its own concurrency each; the server's default (1,000) would
    // cap every replica together at a thousand sessions waiting on the model.
    max_ack_pending: MAX_ACK_PENDING,
  };
  try {
    // A new install (or a rebuilt database with a reset consumer) replays the stream.
    await jsm.consumers.add(stream, { ...config, deliver_policy: DeliverPolicy.All });
    return;
  } catch (err) {
    if (!(err instanceof JetStreamApiError)) throw err;
  }
  const info = await jsm.consumers.info(stream, settings.durable);
  if (info.config.filter_subject === settings.filter) {
    await jsm.consumers.update(stream, settings.durable, { ack_wait: config.ack_wait, max_ack_pending: config.max_ack_pending });
    return;
  }
  // The filter changed with a release (the scheduler's narrowed to `deployments.*`). NATS 2.10+
  // updates it in place; 2.9 cannot, so the consumer is made again from where the old one's
  // acknowledgements reached: what it had delivered but not yet seen acked comes again, which
  // handlers take in their stride (delivery is at least once), and nothing is skipped.
  logger.warn('event consumer filter changed; moving the consumer', { from: info.config.filter_subject, to: settings.filter });
  try {
    await jsm.consumers.update(stream, settings.durable, { filter_subject: settings.filter, ack_wait: config.ack_wait, max_ack_pending: config.max_ack_pending });
    return;
  } catch (err) {
    if (!(err instanceof JetStreamApiError)) throw err;
  }
  await jsm.consumers.delete(stream, settings.durable).catch(() => undefined);
  try {
    await jsm.consumers.add(stream, {
      ...config,
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: info.ack_floor.stream_seq + 1,
    });
  } catch (err) {
    // Another replica moved it at the same moment, from the same ack floor.
    if (!(err instanceof JetStreamApiError)) throw err;
    const moved = await jsm.consumers.info(stream, settings.durable);
    if (moved.config.filter_subject !== settings.filter) throw err;
  }
}
