import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { workSubjects } from '@shared/bus/subjects/runtime';
import { retryTransient } from '@shared/db/retry-transient';
import { POLL_BLOCK_MAX_MS } from '@shared/schema/work';
import type { Tenant } from '@shared/schema/tenant';
import { forgetSilentPollers, recordPoller } from '../db/work-pollers';
import { lockNextWorkItem, updateWorkItem } from '../db/work-items';
import { issueWorkSecret, LONG_POLL_INTERVAL_MS, presentWork, startOver } from '../domain/work-lifecycle';
import type { RuntimeDeps } from '../deps';

/** How long a polled item stays with its poller before it is acknowledged (then the heartbeat lease takes over). */
const POLL_HOLD_MS = 30_000;
/**
 * How often one replica records a worker's polls. `workers_polling` looks 30 s back and a worker
 * long-polls every few seconds, so one write in five seconds is plenty, and the rest are saved.
 */
const POLLER_WRITE_INTERVAL_MS = 5_000;
/** Workers this replica remembers writing for; beyond it, those written longest ago are dropped (and merely written again). */
const MAX_REMEMBERED_POLLERS = 10_000;

/**
 * Long poll: the environment's next item (oldest first; with reclaim_older_than_ms, also one whose
 * worker fell silent that long ago), held for this poller and handed out with its secret: a
 * sessions token scoped to that one session and item. Blocks up to block_ms (at most
 * POLL_BLOCK_MAX_MS, below the bus timeout) and answers null when nothing came. A poll with a
 * worker id records that worker as polling the environment (`workers_polling` in stats).
 */
export const pollWork = (deps: RuntimeDeps): Handler<typeof workSubjects.poll> => {
  const pollers = pollerRecords(deps);
  return async ({ environment_id, block_ms, reclaim_older_than_ms, worker_id }, ctx) => {
    const tenant = tenantOf(ctx);
    if (worker_id !== undefined) await pollers.record(tenant, environment_id, worker_id);
    const deadline = Date.now() + Math.min(block_ms ?? 0, POLL_BLOCK_MAX_MS);
    for (;;) {
      const now = deps.clock.now();
      const reclaimBefore = reclaim_older_than_ms === undefined ? undefined : new Date(now.getTime() - reclaim_older_than_ms);
      const claimed = await retryTransient(() =>
        deps.db.transaction(async (tx) => {
          const row = await lockNextWorkItem(tx, tenant, environment_id, now, reclaimBefore);
          if (!row) return undefined;
          return updateWorkItem(tx, row, {
            leaseExpiresAt: new Date(now.getTime() + POLL_HOLD_MS),
            workerId: worker_id ?? null,
            ...startOver(row),
          });
        }),
      );
      if (claimed) return presentWork(claimed, issueWorkSecret(claimed, deps.config.sessionsTokenKey, now, deps.config.SESSIONS_TOKEN_TTL_SECONDS * 1000));
      if (Date.now() + LONG_POLL_INTERVAL_MS > deadline) return null;
      await Bun.sleep(LONG_POLL_INTERVAL_MS);
    }
  };
};

/**
 * A worker's polls as this replica records them: at most one write per POLLER_WRITE_INTERVAL_MS
 * per worker; the first from a worker also forgets the environment's workers long silent.
 */
function pollerRecords(deps: RuntimeDeps) {
  const writtenAt = new Map<string, number>();
  return {
    async record(tenant: Tenant, environmentId: string, workerId: string): Promise<void> {
      const now = deps.clock.now();
      const key = JSON.stringify([tenant.organization_id, tenant.workspace_id, environmentId, workerId]);
      const last = writtenAt.get(key);
      if (last !== undefined && now.getTime() - last < POLLER_WRITE_INTERVAL_MS) return;
      // Re-inserted so the map's order stays oldest write first.
      writtenAt.delete(key);
      writtenAt.set(key, now.getTime());
      if (writtenAt.size > MAX_REMEMBERED_POLLERS) writtenAt.delete(writtenAt.keys().next().value!);
      await recordPoller(deps.db, tenant, environmentId, workerId, now);
      if (last === undefined) await forgetSilentPollers(deps.db, tenant, environmentId, now);
    },
  };
}
