import type { Handler } from '@shared/bus/bus-server';
import type { workSubjects } from '@shared/bus/subjects/runtime';
import { retryTransient } from '@shared/db/retry-transient';
import { POLL_BLOCK_MAX_MS } from '@shared/schema/work';
import { lockLapsedCloudItem, lockOldestQueuedCloudItem, readCloudQueue, updateWorkItem } from '../db/work-items';
import { claimOrder } from '../domain/work-claims';
import { claimFor, issueWorkSecret, LONG_POLL_INTERVAL_MS, presentWork } from '../domain/work-lifecycle';
import type { RuntimeDeps } from '../deps';

/**
 * A sandbox worker asks for its next session: a cloud item of any tenant, acknowledged for it in
 * the same transaction (`starting`, under the heartbeat lease from now on) and handed out with
 * its secret. An item whose worker's lease lapsed (a crashed or killed worker) is taken back
 * first, since its session already had its turn; otherwise the tenant is chosen by claimOrder
 * (domain/work-claims.ts) and its oldest item goes. SKIP LOCKED: concurrent claims never take
 * one item twice, and one that finds a tenant's item taken moves on to the next tenant. Blocks
 * up to block_ms (at most POLL_BLOCK_MAX_MS, below the bus timeout), then answers null. A system
 * call: it carries no tenant, and the secret it returns is scoped by the item's own.
 */
export const claimWork =
  (deps: RuntimeDeps): Handler<typeof workSubjects.claim> =>
  async ({ worker_id, block_ms }) => {
    const leaseMs = deps.config.WORK_LEASE_TTL_SECONDS * 1000;
    const deadline = Date.now() + Math.min(block_ms ?? 0, POLL_BLOCK_MAX_MS);
    for (;;) {
      const now = deps.clock.now();
      const claimed = await retryTransient(() =>
        deps.db.transaction(async (tx) => {
          let row = await lockLapsedCloudItem(tx, now);
          if (!row) {
            const { waiting, serving } = await readCloudQueue(tx);
            for (const tenant of claimOrder(waiting, serving)) {
              row = await lockOldestQueuedCloudItem(tx, tenant);
              if (row) break;
            }
          }
          return row && updateWorkItem(tx, row, claimFor(row, worker_id, now, leaseMs));
        }),
      );
      if (claimed) return presentWork(claimed, issueWorkSecret(claimed, deps.config.sessionsTokenKey, now, deps.config.SESSIONS_TOKEN_TTL_SECONDS * 1000));
      if (Date.now() + LONG_POLL_INTERVAL_MS > deadline) return null;
      await Bun.sleep(LONG_POLL_INTERVAL_MS);
    }
  };
