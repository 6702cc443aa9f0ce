import { context, SpanKind, trace, type Span } from '@opentelemetry/api';
import { HOP_SECONDS, MESSAGING_DESTINATION_NAME, MESSAGING_OPERATION_TYPE, MESSAGING_SYSTEM, REQUEST_ID } from './spans';
import type { Seam, Telemetry } from './telemetry';
import { TimedOutcomes } from './timed-outcomes';
import { injectTraceContext } from './tracing';

/** One bus call in progress: ended once with its outcome (`ok` or the error type). */
export interface BusCallObservation {
  end(outcome: string): void;
}

/**
 * The caller's side of a bus request (shared/bus/bus-client.ts): how many calls by subject and
 * outcome, how long they took by subject, and a client span per call whose context travels in
 * the request's NATS headers, so the handler's span joins the caller's trace.
 */
export class BusCalls {
  constructor(
    private readonly telemetry: Telemetry,
    private readonly calls: TimedOutcomes,
  ) {}

  /** Starts a call: its span is a child of whatever is active, and goes out in `headers`. */
  begin(subject: string, requestId: string, headers: { get(k: string): string; set(k: string, v: string): void; keys(): string[] }): BusCallObservation {
    const finish = this.calls.start(subject);
    let span: Span | undefined;
    if (this.telemetry.tracingEnabled) {
      const parent = context.active();
      span = this.telemetry.tracer.startSpan(subject, { kind: SpanKind.CLIENT }, parent);
      if (span.isRecording()) {
        span.setAttribute(MESSAGING_SYSTEM, 'nats');
        span.setAttribute(MESSAGING_DESTINATION_NAME, subject);
        span.setAttribute(MESSAGING_OPERATION_TYPE, 'send');
        span.setAttribute(REQUEST_ID, requestId);
      }
      injectTraceContext(trace.setSpan(parent, span), headers);
    }
    return {
      end: (outcome) => finish(outcome, span),
    };
  }
}

export const busCalls: Seam<BusCalls> = (telemetry) =>
  new BusCalls(telemetry, new TimedOutcomes(telemetry, 'subject', {
    total: ['bus_client_calls_total', 'Bus requests this process made, by subject and outcome (ok, or the error type the caller got).'],
    duration: ['bus_client_call_duration_seconds', 'Time from a bus request to its reply (or its failure), as the caller saw it, by subject.', HOP_SECONDS],
  }));
