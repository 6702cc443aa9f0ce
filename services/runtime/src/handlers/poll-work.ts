import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { workSubjects } from '@shared/bus/subjects/runtime';
import { mintSessionsToken, workSecret } from '@shared/crypto/sessions-token';
import { retryTransient } from '@shared/db/retry-transient';
import { POLL_BLOCK_MAX_MS } from '@shared/schema/work';
import { lockNextWorkItem, updateWorkItem } from '../db/work-items';
import { presentWork } from '../domain/work-lifecycle';
import type { RuntimeDeps } from '../service';

/** How often a blocked poll looks again. */
const POLL_INTERVAL_MS = 200;
/** How long a polled item stays with its poller before it is acknowledged (then the heartbeat lease takes over). */
const POLL_HOLD_MS = 30_000;

/**
 * Long poll: the environment's next item (oldest first; with reclaim_older_than_ms, also one whose
 * worker fell silent that long ago), held for this poller and handed out with its secret: a
 * sessions token scoped to that one session and item. Blocks up to block_ms (at most
 * POLL_BLOCK_MAX_MS, below the bus timeout) and answers null when nothing came.
 */
export const pollWork =
  (deps: RuntimeDeps): Handler<typeof workSubjects.poll> =>
  async ({ environment_id, block_ms, reclaim_older_than_ms, worker_id }, ctx) => {
    const tenant = tenantOf(ctx);
    const deadline = Date.now() + Math.min(block_ms ?? 0, POLL_BLOCK_MAX_MS);
    for (;;) {
      const now = deps.clock.now();
      const reclaimBefore = reclaim_older_than_ms === undefined ? undefined : new Date(now.getTime() - reclaim_older_than_ms);
      const claimed = await retryTransient(() =>
        deps.db.transaction(async (tx) => {
          const row = await lockNextWorkItem(tx, tenant, environment_id, now, reclaimBefore);
          if (!row) return undefined;
          const reclaimed = row.state !== 'queued';
          return updateWorkItem(tx, row, {
            leaseExpiresAt: new Date(now.getTime() + POLL_HOLD_MS),
            workerId: worker_id ?? null,
            // A reclaimed item starts over: the new worker acknowledges it like a queued one.
            ...(reclaimed ? { state: 'queued' as const, acknowledgedAt: null, startedAt: null, latestHeartbeatAt: null } : {}),
          });
        }),
      );
      if (claimed) {
        const token = mintSessionsToken(deps.config.sessionsTokenKey, {
          organization_id: tenant.organization_id,
          workspace_id: tenant.workspace_id,
          session_id: claimed.sessionId,
          environment_id,
          work_id: claimed.id,
          expires_at: now.getTime() + deps.config.SESSIONS_TOKEN_TTL_SECONDS * 1000,
        });
        return presentWork(claimed, workSecret(token));
      }
      if (Date.now() + POLL_INTERVAL_MS > deadline) return null;
      await Bun.sleep(POLL_INTERVAL_MS);
    }
  };
