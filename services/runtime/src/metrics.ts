import { Gauge, Registry } from 'prom-client';

/**
 * The runtime's own metrics, in the service's registry (served on the health port's /metrics
 * with the rest). The cloud work gauges count every tenant's items in the shared database, so
 * each replica reports the same numbers: aggregate them with max, not sum.
 */
export function createRuntimeMetrics(registry: Registry = new Registry()) {
  const cloudWork = new Gauge({
    name: 'runtime_cloud_work_items',
    help: "Cloud environments' work items, every tenant's: waiting for a sandbox worker (queued) and being served (serving).",
    labelNames: ['state'],
    registers: [registry],
  });
  cloudWork.set({ state: 'queued' }, 0);
  cloudWork.set({ state: 'serving' }, 0);
  return {
    setCloudWork(counts: { queued: number; serving: number }): void {
      cloudWork.set({ state: 'queued' }, counts.queued);
      cloudWork.set({ state: 'serving' }, counts.serving);
    },
  };
}
export type RuntimeMetrics = ReturnType<typeof createRuntimeMetrics>;
