import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { workSubjects } from '@shared/bus/subjects/runtime';
import { countPollersSince } from '../db/work-pollers';
import { workQueueStats } from '../db/work-items';
import type { RuntimeDeps } from '../deps';

/** The SDK's definition of `workers_polling`: workers that polled in the last 30 seconds. */
const WORKERS_POLLING_WINDOW_MS = 30_000;

/**
 * Queue depth for autoscaling workers on (depth: waiting; pending: being served), and the
 * workers that polled with an id lately (null when none sent one).
 */
export const workStats =
  (deps: RuntimeDeps): Handler<typeof workSubjects.stats> =>
  async ({ environment_id }, ctx) => {
    const tenant = tenantOf(ctx);
    const now = deps.clock.now();
    const [stats, polling] = await Promise.all([
      workQueueStats(deps.db, tenant, environment_id),
      countPollersSince(deps.db, tenant, environment_id, new Date(now.getTime() - WORKERS_POLLING_WINDOW_MS), now),
    ]);
    return {
      type: 'work_queue_stats' as const,
      depth: stats.depth,
      pending: stats.pending,
      oldest_queued_at: stats.oldestQueuedAt ? stats.oldestQueuedAt.toISOString() : null,
      workers_polling: polling,
    };
  };
