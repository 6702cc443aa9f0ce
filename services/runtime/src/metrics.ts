/**
 * The runtime's own Prometheus metrics, rendered on the health port's /metrics with the bus
 * server's. The cloud work gauges count every tenant's items in the shared database, so each
 * replica reports the same numbers: aggregate them with max, not sum.
 */
export function createRuntimeMetrics() {
  let cloudQueued = 0;
  let cloudServing = 0;
  return {
    setCloudWork(counts: { queued: number; serving: number }): void {
      cloudQueued = counts.queued;
      cloudServing = counts.serving;
    },
    render(): string {
      return [
        '# HELP runtime_cloud_work_items Cloud environments\' work items, every tenant\'s: waiting for a sandbox worker (queued) and being served (serving).',
        '# TYPE runtime_cloud_work_items gauge',
        `runtime_cloud_work_items{state="queued"} ${cloudQueued}`,
        `runtime_cloud_work_items{state="serving"} ${cloudServing}`,
        '',
      ].join('\n');
    },
  };
}
export type RuntimeMetrics = ReturnType<typeof createRuntimeMetrics>;
