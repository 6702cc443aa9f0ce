import { context, ROOT_CONTEXT, trace, type Context, type TextMapGetter, type TextMapSetter, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
} from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

/** The standard OTEL_* variables the services read (TelemetryConfig in shared/config/load-config.ts). */
export interface TracingConfig {
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;
  OTEL_EXPORTER_OTLP_HEADERS?: string;
  OTEL_TRACES_SAMPLER?: TraceSamplerName;
  OTEL_TRACES_SAMPLER_ARG?: number;
  OTEL_RESOURCE_ATTRIBUTES?: string;
}

export const TRACE_SAMPLERS = [
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
  'always_on',
  'always_off',
  'traceidratio',
] as const;
export type TraceSamplerName = (typeof TRACE_SAMPLERS)[number];

/** The instrumentation scope every span of ours is recorded under. */
const SCOPE = 'agent-deployments';

export interface Tracing {
  /** False without an endpoint: the tracer is the API's no-op one and the seams start no span at all. */
  readonly enabled: boolean;
  readonly tracer: Tracer;
  /** Exports what is buffered now (tests, before a stop). */
  flush(): Promise<void>;
  /** Flushes, then stops exporting. */
  shutdown(): Promise<void>;
}

/**
 * The W3C trace context propagator, as an instance rather than the API's global: spans cross
 * the bus in NATS message headers (`traceparent`, `tracestate`), and nothing else of ours reads
 * or writes the global propagator.
 */
export const traceContext = new W3CTraceContextPropagator();

/** NATS headers (MsgHdrs) as a carrier: `get` answers '' for a missing header, which means none. */
interface HeaderCarrier {
  get(key: string): string;
  set(key: string, value: string): void;
  keys(): string[];
}
const headerSetter: TextMapSetter<HeaderCarrier> = { set: (carrier, key, value) => carrier.set(key, value) };
const headerGetter: TextMapGetter<HeaderCarrier> = {
  get: (carrier, key) => carrier.get(key) || undefined,
  keys: (carrier) => carrier.keys(),
};

/** Writes the span context of `ctx` (a recording or sampled-out span) into message headers. */
export function injectTraceContext(ctx: Context, headers: HeaderCarrier): void {
  traceContext.inject(ctx, headers, headerSetter);
}

/**
 * The caller's span context from message headers, as the parent of the span that handles it;
 * nothing else of the context the message happened to arrive in.
 */
export function extractTraceContext(headers: Pick<HeaderCarrier, 'get' | 'keys'> | undefined): Context {
  return headers ? traceContext.extract(ROOT_CONTEXT, headers, headerGetter as TextMapGetter<Pick<HeaderCarrier, 'get' | 'keys'>>) : ROOT_CONTEXT;
}

/**
 * Where spans are exported, from the standard variables: the traces endpoint as given, or the
 * base endpoint with `/v1/traces` appended. Neither set: no traces at all.
 */
export function tracesUrl(config: TracingConfig): string | undefined {
  if (config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (!config.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  return `${config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
}

/** `key=value,key=value` with percent-encoded values (OTEL_RESOURCE_ATTRIBUTES, OTEL_EXPORTER_OTLP_HEADERS). */
export function parseKeyValueList(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (text ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const key = pair.slice(0, at).trim();
    const raw = pair.slice(at + 1).trim();
    let value: string;
    try {
      value = decodeURIComponent(raw);
    } catch {
      value = raw;
    }
    if (key) out[key] = value;
  }
  return out;
}

export function samplerOf(name: TraceSamplerName = 'parentbased_always_on', ratio = 1): Sampler {
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

let contextManagerInstalled = false;

/**
 * Spans follow the work through awaits by AsyncLocalStorage. Installed once per process, the
 * first time a service starts with tracing on, and never removed: the tests run every service in
 * one process, and the context is the process's, not a service's.
 */
function installContextManager(): void {
  if (contextManagerInstalled) return;
  contextManagerInstalled = true;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
}

/**
 * The tracing of one service: off (the API's no-op tracer, no provider, nothing buffered) unless
 * an OTLP endpoint is configured; on, a tracer provider of the service's own, so each of several
 * services in one process (the tests) exports under its own `service.name`. The provider is never
 * registered as the global one: every span of ours is made through this tracer, and nothing else
 * in the process (the Anthropic SDK's own tracing) starts exporting because of it.
 */
export function startTracing(service: string, config: TracingConfig): Tracing {
  const url = tracesUrl(config);
  if (!url) {
    return { enabled: false, tracer: trace.getTracer(SCOPE), flush: async () => undefined, shutdown: async () => undefined };
  }
  installContextManager();
  const exporter = new OTLPTraceExporter({ url, headers: parseKeyValueList(config.OTEL_EXPORTER_OTLP_HEADERS) });
  const provider = new BasicTracerProvider({
    // Ours last: the service's name is what every view groups by, whatever the attributes say.
    resource: resourceFromAttributes({ ...parseKeyValueList(config.OTEL_RESOURCE_ATTRIBUTES), [ATTR_SERVICE_NAME]: service }),
    sampler: samplerOf(config.OTEL_TRACES_SAMPLER, config.OTEL_TRACES_SAMPLER_ARG ?? 1),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  return {
    enabled: true,
    tracer: provider.getTracer(SCOPE),
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
