import type { Span } from '@opentelemetry/api';
import { Counter, Histogram } from 'prom-client';
import { endSpan } from './spans';
import type { Telemetry } from './telemetry';

/** A metric's name and its help text. */
type MetricText = readonly [name: string, help: string];

/**
 * One kind of work counted by a label and its outcome, and timed by that label, its span (when
 * it has one) ended with the same outcome: what a bus call, a served bus request and a database
 * statement each record once they end.
 */
export class TimedOutcomes {
  private readonly total: Counter<string>;
  private readonly duration: Histogram<string>;

  constructor(
    telemetry: Telemetry,
    private readonly label: string,
    metrics: { total: MetricText; duration: readonly [...MetricText, buckets: number[]] },
  ) {
    const [totalName, totalHelp] = metrics.total;
    const [durationName, durationHelp, buckets] = metrics.duration;
    this.total = new Counter({ name: totalName, help: totalHelp, labelNames: [label, 'outcome'], registers: [telemetry.registry] });
    this.duration = new Histogram({ name: durationName, help: durationHelp, labelNames: [label], buckets, registers: [telemetry.registry] });
  }

  /** Starts the clock on one piece of work labelled `value`; what it returns records how it ended, once. */
  start(value: string): (outcome: string, span: Span | undefined) => void {
    const started = performance.now();
    return (outcome, span) => {
      this.total.inc({ [this.label]: value, outcome });
      this.duration.observe({ [this.label]: value }, (performance.now() - started) / 1000);
      if (span) endSpan(span, outcome);
    };
  }
}
