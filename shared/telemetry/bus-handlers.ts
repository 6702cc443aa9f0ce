import { SpanKind, type Span } from '@opentelemetry/api';
import { HOP_SECONDS, MESSAGING_DESTINATION_NAME, MESSAGING_OPERATION_TYPE, MESSAGING_SYSTEM, REQUEST_ID, runInSpan } from './spans';
import type { Seam, Telemetry } from './telemetry';
import { TimedOutcomes } from './timed-outcomes';
import { extractTraceContext } from './tracing';

/** One served request in progress: its handler runs inside `run`, then it is ended once with its outcome. */
export interface BusHandlerObservation {
  run<T>(work: () => Promise<T>): Promise<T>;
  end(outcome: string): void;
}

const direct: BusHandlerObservation['run'] = (work) => work();

/**
 * The serving side of a bus request (shared/bus/bus-server.ts): requests by subject and outcome,
 * their time by subject (from arrival to the reply, a wait in the tenant's bulkhead queue
 * included), and a server span per request that continues the caller's trace from the message's
 * headers and is active while the handler runs, so its statements and onward calls are its children.
 */
export class BusHandlers {
  constructor(
    private readonly telemetry: Telemetry,
    private readonly requests: TimedOutcomes,
  ) {}

  begin(subject: string, requestId: string, headers: { get(k: string): string; keys(): string[] } | undefined): BusHandlerObservation {
    const finish = this.requests.start(subject);
    let span: Span | undefined;
    let run = direct;
    if (this.telemetry.tracingEnabled) {
      const parent = extractTraceContext(headers);
      const served = this.telemetry.tracer.startSpan(subject, { kind: SpanKind.SERVER }, parent);
      if (served.isRecording()) {
        served.setAttribute(MESSAGING_SYSTEM, 'nats');
        served.setAttribute(MESSAGING_DESTINATION_NAME, subject);
        served.setAttribute(MESSAGING_OPERATION_TYPE, 'process');
        served.setAttribute(REQUEST_ID, requestId);
      }
      span = served;
      run = (work) => runInSpan(parent, served, work);
    }
    return {
      run,
      end: (outcome) => finish(outcome, span),
    };
  }
}

export const busHandlers: Seam<BusHandlers> = (telemetry) =>
  new BusHandlers(telemetry, new TimedOutcomes(telemetry, 'subject', {
    total: ['bus_server_requests_total', 'Bus requests this process answered, by subject and outcome (ok, or the error type it answered).'],
    duration: ['bus_server_request_duration_seconds', 'Time from a bus request\'s arrival to its reply, a wait for its tenant\'s bulkhead slot included, by subject.', HOP_SECONDS],
  }));
