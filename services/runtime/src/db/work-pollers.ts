import { and, count, eq, gte, lt, sql } from 'drizzle-orm';
import type { Executor } from '@shared/db/executor';
import { ownedBy } from '@shared/db/owned-by';
import type { TenantIds } from '@shared/schema/tenant';
import { workPollers } from './schema';

/** A worker not seen for this long is forgotten (its row deleted), so worker ids that come and go do not pile up. */
const FORGET_AFTER_MS = 3600_000;

/** The worker polled the environment now. */
export async function recordPoller(db: Executor, owner: TenantIds, environmentId: string, workerId: string, now: Date): Promise<void> {
  await db
    .insert(workPollers)
    .values({ organizationId: owner.organization_id, workspaceId: owner.workspace_id, environmentId, workerId, lastPolledAt: now })
    // Never back in time: replicas' clocks differ a little, and each writes on its own schedule.
    .onDuplicateKeyUpdate({ set: { lastPolledAt: sql`greatest(${workPollers.lastPolledAt}, ${now})` } });
}

/** Forgets the environment's workers silent for an hour or more. */
export async function forgetSilentPollers(db: Executor, owner: TenantIds, environmentId: string, now: Date): Promise<void> {
  await db
    .delete(workPollers)
    .where(
      and(
        ownedBy(workPollers, owner),
        eq(workPollers.environmentId, environmentId),
        lt(workPollers.lastPolledAt, new Date(now.getTime() - FORGET_AFTER_MS)),
      ),
    );
}

/**
 * Workers that polled the environment since `since`; null when none has polled it with an id
 * within the last hour (`now` less an hour), since workers that send no id cannot be counted and
 * 0 would say that none polled.
 */
export async function countPollersSince(db: Executor, owner: TenantIds, environmentId: string, since: Date, now: Date): Promise<number | null> {
  const known = new Date(now.getTime() - FORGET_AFTER_MS);
  const [row] = await db
    .select({ known: count(), recent: count(sql`case when ${gte(workPollers.lastPolledAt, since)} then 1 end`) })
    .from(workPollers)
    .where(and(ownedBy(workPollers, owner), eq(workPollers.environmentId, environmentId), gte(workPollers.lastPolledAt, known)));
  return row && row.known > 0 ? row.recent : null;
}
