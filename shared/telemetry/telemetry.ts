import type { Tracer } from '@opentelemetry/api';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { startTracing, type Tracing, type TracingConfig } from './tracing';

/**
 * How often the event loop's delay is sampled (`nodejs_eventloop_lag_*`). prom-client's default,
 * 10 ms, wakes every process 100 times a second for it: 4-5 of the 15-21 ms of CPU a second an
 * idle service spent (Bun 1.4, bench/agent-loop-stack.ts's processes doing nothing), which the
 * agent-loop bench counted against services with nothing to do in a turn (vaults, the catalog).
 * 100 ms still samples a busy loop ten times a second, and a stall long enough to matter spans
 * a sample anyway.
 */
const EVENT_LOOP_SAMPLE_MS = 100;

/** An instrumentation point's metrics and spans, made once per service from its telemetry (see Telemetry.seam). */
export type Seam<T> = (telemetry: Telemetry) => T;

/**
 * One service's metrics and traces. Its own prom-client registry, never the global default one:
 * the tests run every service in one process, and each serves its own /metrics; likewise its own
 * tracer provider (tracing.ts), so each exports under its own service.name.
 *
 * Instrumentation points take their instruments from `seam(kind)`: each kind (bus calls, bus
 * handlers, database statements, HTTP requests) is made once per service and shared by whatever
 * records it, so a metric is registered exactly once per registry.
 */
export class Telemetry {
  readonly registry = new Registry();
  private readonly seams = new Map<Seam<unknown>, unknown>();

  private constructor(
    readonly service: string,
    private readonly tracing: Tracing,
  ) {}

  /** A running service's: the process's default metrics, and spans exported when configured. */
  static start(service: string, config: TracingConfig): Telemetry {
    const telemetry = new Telemetry(service, startTracing(service, config));
    collectDefaultMetrics({ register: telemetry.registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
    return telemetry;
  }

  /**
   * For parts built outside a service runtime (tests, tools, benches): instruments that record
   * into a registry nobody serves, and no spans.
   */
  static detached(service = 'detached'): Telemetry {
    return new Telemetry(service, startTracing(service, {}));
  }

  /** Whether spans are made at all (an OTLP endpoint is configured). */
  get tracingEnabled(): boolean {
    return this.tracing.enabled;
  }

  get tracer(): Tracer {
    return this.tracing.tracer;
  }

  seam<T>(make: Seam<T>): T {
    let made = this.seams.get(make) as T | undefined;
    if (made === undefined) {
      made = make(this);
      this.seams.set(make, made);
    }
    return made;
  }

  /** Prometheus text exposition of everything registered, for /metrics. */
  metrics(): Promise<string> {
    return this.registry.metrics();
  }

  get metricsContentType(): string {
    return this.registry.contentType;
  }

  /** Exports the spans buffered so far. */
  flush(): Promise<void> {
    return this.tracing.flush();
  }

  /** Exports what is left and stops exporting; the last thing a service does. */
  shutdown(): Promise<void> {
    return this.tracing.shutdown();
  }
}
