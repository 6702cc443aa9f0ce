import { context, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';

/**
 * Latency buckets in seconds for a hop of ours (an API request, a bus call or handler): most take
 * a millisecond or a few, a slow one (a group commit under load, a file through the object store)
 * seconds, and BUS_TIMEOUT_MS (5 s by default) ends the rest.
 */
export const HOP_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Messaging attributes of the OpenTelemetry semantic conventions (still incubating there, so
 * named here rather than imported from `@opentelemetry/semantic-conventions/incubating`, whose
 * names may change between its releases).
 */
export const MESSAGING_SYSTEM = 'messaging.system';
export const MESSAGING_DESTINATION_NAME = 'messaging.destination.name';
export const MESSAGING_OPERATION_TYPE = 'messaging.operation.type';
/** The API request the work is for: the id the gateway gave it, in every log line and span. */
export const REQUEST_ID = 'request_id';

/** Runs `work` with `span` as the active span, so what it starts (bus calls, statements) are its children. */
export function runInSpan<T>(parent: Context, span: Span, work: () => Promise<T>): Promise<T> {
  return context.with(trace.setSpan(parent, span), work);
}

/** Ends a span with the outcome: anything but `ok` is an error, its type the outcome. */
export function endSpan(span: Span, outcome: string): void {
  if (outcome !== 'ok') {
    span.setAttribute(ATTR_ERROR_TYPE, outcome);
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}
