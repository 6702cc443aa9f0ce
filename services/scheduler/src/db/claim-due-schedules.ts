import { and, asc, eq, inArray, isNull, lte, or } from 'drizzle-orm';
import type { Database } from '@shared/db/connect';
import { retryTransient } from '@shared/db/retry-transient';
import { schedules, type ScheduleRow } from './schema';

export type ClaimedSchedule = ScheduleRow & { nextOccurrenceAt: Date; nextFireAt: Date };

/**
 * Claims up to `limit` rows due by `dueBy` (now, or now plus the lookahead) for one worker: in one short transaction, the due rows no one
 * holds are locked with SKIP LOCKED (concurrent workers get disjoint sets without waiting),
 * then stamped with the worker's claim token and a lease. The lock ends at commit; the lease
 * keeps other workers off while this one fires, and lapses by itself if this one dies.
 * A worker killed inside this transaction loses nothing: the database rolls it back. A deadlock
 * between concurrent claims is rolled back too, and simply retried.
 */
export async function claimDueSchedules(
  db: Database,
  claim: { token: string; now: Date; dueBy: Date; leaseMs: number; limit: number },
): Promise<ClaimedSchedule[]> {
  return retryTransient(() => db.transaction(
    async (tx) => {
      const rows = await tx
        .select()
        .from(schedules)
        .where(
          and(
            eq(schedules.active, true),
            lte(schedules.nextFireAt, claim.dueBy),
            or(isNull(schedules.claimUntil), lte(schedules.claimUntil, claim.now)),
          ),
        )
        .orderBy(asc(schedules.nextFireAt))
        .limit(claim.limit)
        .for('update', { skipLocked: true });
      if (rows.length === 0) return [];
      await tx
        .update(schedules)
        .set({ claimedBy: claim.token, claimUntil: new Date(claim.now.getTime() + claim.leaseMs) })
        .where(inArray(schedules.deploymentId, rows.map((r) => r.deploymentId)));
      return rows.map((r) => ({ ...r, claimedBy: claim.token })) as ClaimedSchedule[];
    },
    { isolationLevel: 'read committed' },
  ));
}
