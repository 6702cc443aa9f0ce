/** Fire lag buckets in seconds: jitter alone spreads fires over [0, 60). */
const LAG_BUCKETS = [1, 5, 10, 20, 30, 45, 60, 90, 120, 300, 900, 3600];

export type FireOutcomeLabel =
  | { outcome: 'fired' }
  | { outcome: 'skipped'; reason: string }
  | { outcome: 'failed'; reason: string };

/**
 * The scheduler's Prometheus metrics, kept in memory per process and rendered as text on the
 * health port's /metrics. Counters are per replica; Prometheus sums them.
 */
export function createSchedulerMetrics() {
  let dueBacklog = 0;
  let skippedMisfires = 0;
  const fires = new Map<string, number>();
  const lagCounts = new Array<number>(LAG_BUCKETS.length).fill(0);
  let lagSum = 0;
  let lagCount = 0;

  return {
    setDueBacklog(n: number): void {
      dueBacklog = n;
    },
    countFire(label: FireOutcomeLabel): void {
      const key = 'reason' in label ? `outcome="${label.outcome}",reason="${label.reason}"` : `outcome="${label.outcome}"`;
      fires.set(key, (fires.get(key) ?? 0) + 1);
    },
    countSkippedMisfires(n: number): void {
      skippedMisfires += n;
    },
    /** Actual fire time minus the listed occurrence. */
    observeFireLag(seconds: number): void {
      lagSum += seconds;
      lagCount += 1;
      LAG_BUCKETS.forEach((bound, i) => {
        if (seconds <= bound) lagCounts[i]! += 1;
      });
    },
    snapshot() {
      return { dueBacklog, skippedMisfires, fires: Object.fromEntries(fires), lagCount, lagSum };
    },
    render(): string {
      const lines = [
        '# HELP scheduler_due_backlog Active schedules whose fire time has passed.',
        '# TYPE scheduler_due_backlog gauge',
        `scheduler_due_backlog ${dueBacklog}`,
        '# HELP scheduler_fires_total Fire attempts by outcome (skipped/failed carry a reason).',
        '# TYPE scheduler_fires_total counter',
        ...[...fires].map(([labels, n]) => `scheduler_fires_total{${labels}} ${n}`),
        '# HELP scheduler_skipped_misfires_total Missed occurrences skipped instead of fired after downtime.',
        '# TYPE scheduler_skipped_misfires_total counter',
        `scheduler_skipped_misfires_total ${skippedMisfires}`,
        '# HELP scheduler_fire_lag_seconds Actual fire time minus the listed occurrence (includes jitter).',
        '# TYPE scheduler_fire_lag_seconds histogram',
        ...LAG_BUCKETS.map((bound, i) => `scheduler_fire_lag_seconds_bucket{le="${bound}"} ${lagCounts[i]}`),
        `scheduler_fire_lag_seconds_bucket{le="+Inf"} ${lagCount}`,
        `scheduler_fire_lag_seconds_sum ${lagSum}`,
        `scheduler_fire_lag_seconds_count ${lagCount}`,
      ];
      return lines.join('\n') + '\n';
    },
  };
}
export type SchedulerMetrics = ReturnType<typeof createSchedulerMetrics>;
