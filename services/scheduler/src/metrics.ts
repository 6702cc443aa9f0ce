import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Fire lag buckets in seconds: jitter alone spreads fires over [0, 60). */
const LAG_BUCKETS = [1, 5, 10, 20, 30, 45, 60, 90, 120, 300, 900, 3600];

export type FireOutcomeLabel =
  | { outcome: 'fired' }
  | { outcome: 'skipped'; reason: string }
  | { outcome: 'failed'; reason: string };

/**
 * The scheduler's metrics, in the service's registry (served on the health port's /metrics with
 * the rest); a worker built without a service (tests) gets a registry of its own. Counters are
 * per replica; Prometheus sums them.
 */
export function createSchedulerMetrics(registry: Registry = new Registry()) {
  const registers = [registry];
  const dueBacklog = new Gauge({ name: 'scheduler_due_backlog', help: 'Active schedules whose fire time has passed.', registers });
  const fires = new Counter({
    name: 'scheduler_fires_total',
    help: 'Fire attempts by outcome (skipped/failed carry a reason).',
    labelNames: ['outcome', 'reason'],
    registers,
  });
  const skippedMisfires = new Counter({
    name: 'scheduler_skipped_misfires_total',
    help: 'Missed occurrences skipped instead of fired after downtime.',
    registers,
  });
  const fireLag = new Histogram({
    name: 'scheduler_fire_lag_seconds',
    help: 'Actual fire time minus the listed occurrence (includes jitter).',
    buckets: LAG_BUCKETS,
    registers,
  });

  return {
    registry,
    setDueBacklog(n: number): void {
      dueBacklog.set(n);
    },
    countFire(label: FireOutcomeLabel): void {
      fires.inc(label);
    },
    countSkippedMisfires(n: number): void {
      skippedMisfires.inc(n);
    },
    /** Actual fire time minus the listed occurrence. */
    observeFireLag(seconds: number): void {
      fireLag.observe(seconds);
    },
    /** The figures as numbers, for tests: fires keyed by their labels as the text shows them (`outcome="fired"`). */
    async snapshot() {
      const [backlog, fired, skipped, lag] = await Promise.all([dueBacklog.get(), fires.get(), skippedMisfires.get(), fireLag.get()]);
      const byName = (name: string) => lag.values.find((v) => v.metricName === name)?.value ?? 0;
      return {
        dueBacklog: backlog.values[0]?.value ?? 0,
        skippedMisfires: skipped.values[0]?.value ?? 0,
        fires: Object.fromEntries(
          fired.values.map((v) => [
            Object.entries(v.labels)
              .map(([k, l]) => `${k}="${l}"`)
              .join(','),
            v.value,
          ]),
        ),
        lagCount: byName('scheduler_fire_lag_seconds_count'),
        lagSum: byName('scheduler_fire_lag_seconds_sum'),
      };
    },
    /** Prometheus text of the registry (the whole service's when it is the service's). */
    render(): Promise<string> {
      return registry.metrics();
    },
  };
}
export type SchedulerMetrics = ReturnType<typeof createSchedulerMetrics>;
