import { countCloudWork } from '../db/work-items';
import type { RuntimeDeps } from '../deps';

/** Counts the cloud items queued and being served into the `runtime_cloud_work_items` gauge (what the sandbox workers scale on). */
export const measureCloudWork = (deps: RuntimeDeps) => async (): Promise<void> => {
  deps.metrics.setCloudWork(await countCloudWork(deps.db));
};
