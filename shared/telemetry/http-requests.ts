import { ROOT_CONTEXT, SpanKind, type Span } from '@opentelemetry/api';
import { ATTR_HTTP_REQUEST_METHOD, ATTR_HTTP_RESPONSE_STATUS_CODE, ATTR_HTTP_ROUTE } from '@opentelemetry/semantic-conventions';
import { Counter, Histogram } from 'prom-client';
import { endSpan, HOP_SECONDS, REQUEST_ID, runInSpan } from './spans';
import type { Seam, Telemetry } from './telemetry';

/** The route label of a request that matched no route: the raw path would be unbounded (and the client's). */
export const UNMATCHED_ROUTE = 'unmatched';

/** One API request in progress: its handling runs inside `run`, then it is ended once with its route and status. */
export interface HttpRequestObservation {
  run<T>(work: () => Promise<T>): Promise<T>;
  /** `route` is the route template (`/v1/deployments/:deployment_id`), never the path the client sent. */
  end(route: string | undefined, status: number): void;
}

const direct: HttpRequestObservation['run'] = (work) => work();

/**
 * An API request at the gateway: requests by method, route template and status, their time by
 * method and route (until the answer's head is ready; an event stream's body runs on), and the
 * root span of the request's trace. Every request starts a new trace: a client's `traceparent`
 * is not continued (it is untrusted input, and would let a client decide what is sampled).
 */
export class HttpRequests {
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly duration: Histogram<'method' | 'route'>;

  constructor(private readonly telemetry: Telemetry) {
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'API requests answered, by method, route template and status code.',
      labelNames: ['method', 'route', 'status'],
      registers: [telemetry.registry],
    });
    this.duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from an API request\'s head to its answer\'s head, by method and route template.',
      labelNames: ['method', 'route'],
      buckets: HOP_SECONDS,
      registers: [telemetry.registry],
    });
  }

  begin(method: string, requestId: string): HttpRequestObservation {
    const started = performance.now();
    let span: Span | undefined;
    let run = direct;
    if (this.telemetry.tracingEnabled) {
      const root = this.telemetry.tracer.startSpan(method, { kind: SpanKind.SERVER, root: true });
      if (root.isRecording()) {
        root.setAttribute(ATTR_HTTP_REQUEST_METHOD, method);
        root.setAttribute(REQUEST_ID, requestId);
      }
      span = root;
      run = (work) => runInSpan(ROOT_CONTEXT, root, work);
    }
    return {
      run,
      end: (template, status) => {
        const route = template ?? UNMATCHED_ROUTE;
        this.requests.inc({ method, route, status: String(status) });
        this.duration.observe({ method, route }, (performance.now() - started) / 1000);
        if (!span) return;
        if (span.isRecording()) {
          // The span's name is the route template, known only once the router has matched.
          span.updateName(template ? `${method} ${template}` : method);
          if (template) span.setAttribute(ATTR_HTTP_ROUTE, template);
          span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
        }
        endSpan(span, status >= 500 ? String(status) : 'ok');
      },
    };
  }
}

export const httpRequests: Seam<HttpRequests> = (telemetry) => new HttpRequests(telemetry);
