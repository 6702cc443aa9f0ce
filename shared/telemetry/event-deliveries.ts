import { context, ROOT_CONTEXT, SpanKind, trace, type Link, type Span } from '@opentelemetry/api';
import { headers as natsHeaders, type MsgHdrs } from '@nats-io/transport-node';
import { endSpan, MESSAGING_DESTINATION_NAME, MESSAGING_OPERATION_TYPE, MESSAGING_SYSTEM, runInSpan } from './spans';
import type { Seam, Telemetry } from './telemetry';
import { extractTraceContext, injectTraceContext } from './tracing';

/** One delivered event being handled: the handler runs inside `run`, then it is ended once. */
export interface EventDeliveryObservation {
  run<T>(work: () => Promise<T>): Promise<T>;
  end(outcome: string): void;
}

const direct: EventDeliveryObservation['run'] = (work) => work();

/**
 * Domain events on JetStream, traced where it is natural: an event the outbox relay publishes
 * straight after its transaction commits (OutboxRelay.publishCommitted, still in the handler's
 * context) carries the handler's span context in its headers, and a consumer's handling of it is
 * a span of a new trace linked to that one. A link, not a parent: session notices beget appends
 * that beget notices, and a parent would make one trace of a session's whole life. Events the
 * claiming pass publishes later carry nothing (their trace has ended).
 */
export class EventDeliveries {
  constructor(private readonly telemetry: Telemetry) {}

  /** Headers carrying the active span's context for an event published now; undefined when there is none. */
  publishHeaders(): MsgHdrs | undefined {
    if (!this.telemetry.tracingEnabled) return undefined;
    const active = context.active();
    if (!trace.getSpan(active)?.isRecording()) return undefined;
    const headers = natsHeaders();
    injectTraceContext(active, headers);
    return headers;
  }

  begin(subject: string, consumer: string, headers: MsgHdrs | undefined): EventDeliveryObservation {
    if (!this.telemetry.tracingEnabled) return { run: direct, end: () => undefined };
    const published = trace.getSpanContext(extractTraceContext(headers));
    const links: Link[] = published ? [{ context: published }] : [];
    const span: Span = this.telemetry.tracer.startSpan(`${subject} process`, { kind: SpanKind.CONSUMER, root: true, links });
    if (span.isRecording()) {
      span.setAttribute(MESSAGING_SYSTEM, 'nats');
      span.setAttribute(MESSAGING_DESTINATION_NAME, subject);
      span.setAttribute(MESSAGING_OPERATION_TYPE, 'process');
      span.setAttribute('messaging.consumer.group.name', consumer);
    }
    return { run: (work) => runInSpan(ROOT_CONTEXT, span, work), end: (outcome) => endSpan(span, outcome) };
  }
}

export const eventDeliveries: Seam<EventDeliveries> = (telemetry) => new EventDeliveries(telemetry);
