import type { Handler } from '@shared/bus/bus-server';
import type { workSubjects } from '@shared/bus/subjects/runtime';
import { retryTransient } from '@shared/db/retry-transient';
import { POLL_BLOCK_MAX_MS } from '@shared/schema/work';
import { lockLapsedCloudItem, lockOldestQueuedCloudItem, readCloudQueue, updateWorkItem } from '../db/work-items';
import { claimOrder } from '../domain/work-claims';
import { claimFor, issueWorkSecret, LONG_POLL_INTERVAL_MS, presentWork } from '../domain/work-lifecycle';
import type { RuntimeDeps } from '../deps';
import { systemContext } from '@shared/bus/call-context';
import { ApiError } from '@shared/errors/api-error';
import type { ClaimedWork } from '@shared/schema/sandbox-policy';
import type { WorkItemRow } from '../db/schema';
import { sandboxPolicy } from '../domain/sandbox-policy';
import { sandboxSecrets, unreachableCredentialHosts } from '../domain/sandbox-secrets';
import { appendAtLogEnd } from '../session-driver/session-log-writes';

/**
 * What the claimed item's sandbox enforces (domain/sandbox-policy.ts), mounts and substitutes at
 * egress (its vaults' environment variables, domain/sandbox-secrets.ts), read now, with
 * the item's tenant: the environment and the session as they are. Gone (not found) reads as the
 * locked-down policy and nothing mounted; any other failure fails the claim, and the item,
 * claimed but never handed out, is taken again once its lease lapses.
 */
async function readSandboxSide(deps: RuntimeDeps, item: WorkItemRow): Promise<Omit<ClaimedWork, 'work'>> {
  const owner = { organization_id: item.organizationId, workspace_id: item.workspaceId };
  const ctx = systemContext(`req_runtime_claim_${item.id}`, { ...owner, scope: 'read_only', key_id: 'runtime' });
  const gone = (err: unknown) => {
    if (err instanceof ApiError && err.type === 'not_found_error') return undefined;
    throw err;
  };
  const [config, session, mounts] = await Promise.all([
    deps.environments.configOf(ctx, item.environmentId).catch(gone),
    deps.sessions.get(ctx, item.sessionId).catch(gone),
    deps.sessions.mounts(ctx, item.sessionId).catch(gone),
  ]);
  const vaults = session ? await deps.vaults.resolve(ctx, session.vault_ids) : [];
  const sandbox = sandboxPolicy(config, session);
  const unreachable = unreachableCredentialHosts(vaults, sandbox.networking);
  if (unreachable.length > 0) await appendAtLogEnd(deps, owner, item.sessionId, `req_runtime_claim_${item.id}`, () => unreachable);
  return { sandbox, mounts: mounts ?? { repositories: [], files: [] }, secrets: sandboxSecrets(vaults), owner };
}

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
      if (claimed) {
        const work = presentWork(claimed, issueWorkSecret(claimed, deps.config.sessionsTokenKey, now, deps.config.SESSIONS_TOKEN_TTL_SECONDS * 1000));
        return { work, ...(await readSandboxSide(deps, claimed)) };
      }
      if (Date.now() + LONG_POLL_INTERVAL_MS > deadline) return null;
      await Bun.sleep(LONG_POLL_INTERVAL_MS);
    }
  };
