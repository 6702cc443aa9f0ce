import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { workSubjects } from '@shared/bus/subjects/runtime';
import { workQueueStats } from '../db/work-items';
import type { RuntimeDeps } from '../service';

/** Queue depth for autoscaling workers on (depth: waiting; pending: being served). Pollers are not counted. */
export const workStats =
  (deps: RuntimeDeps): Handler<typeof workSubjects.stats> =>
  async ({ environment_id }, ctx) => {
    const stats = await workQueueStats(deps.db, tenantOf(ctx), environment_id);
    return {
      type: 'work_queue_stats' as const,
      depth: stats.depth,
      pending: stats.pending,
      oldest_queued_at: stats.oldestQueuedAt ? stats.oldestQueuedAt.toISOString() : null,
      workers_polling: null,
    };
  };
