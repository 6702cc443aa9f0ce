import { and, eq } from 'drizzle-orm';
import type { Database } from '../../../../shared/db/connect';
import type { PlannedFire } from '../domain/next-fire';
import { schedules } from './schema';

/** How a worker leaves a row it claimed. */
export type Settlement =
  /** Fired, skipped as a misfire, or not due after all: wait for the next occurrence. */
  | { kind: 'advance'; next: PlannedFire | null }
  /** The deployments service said paused/archived/gone/unscheduled: wait for a newer snapshot. */
  | { kind: 'deactivate' }
  /** The fire failed on the bus: keep the occurrence, retry once the delay passes. */
  | { kind: 'retry'; retryAt: Date };

export interface ClaimSettlement {
  deploymentId: string;
  token: string;
  settlement: Settlement;
}

/**
 * Writes the outcome of a batch in one transaction. Each update matches only while the row
 * still carries this worker's claim token: if the lease lapsed and another worker re-claimed
 * the row, or a snapshot replanned it, this worker's result is stale and changes nothing.
 * Rows are updated in key order so two workers settling overlapping rows (one of them with a
 * lapsed lease) cannot deadlock. Returns how many rows were still held.
 */
export async function settleClaims(db: Database, settlements: ClaimSettlement[], now: Date): Promise<number> {
  if (settlements.length === 0) return 0;
  return db.transaction(async (tx) => {
    let held = 0;
    const ordered = [...settlements].sort((a, b) => (a.deploymentId < b.deploymentId ? -1 : a.deploymentId > b.deploymentId ? 1 : 0));
    for (const { deploymentId, token, settlement } of ordered) {
      const values =
        settlement.kind === 'advance'
          ? {
              active: settlement.next !== null,
              nextOccurrenceAt: settlement.next?.occurrence ?? null,
              nextFireAt: settlement.next?.fireAt ?? null,
              claimedBy: null,
              claimUntil: null,
            }
          : settlement.kind === 'deactivate'
            ? { active: false, nextOccurrenceAt: null, nextFireAt: null, claimedBy: null, claimUntil: null }
            : { claimUntil: settlement.retryAt };
      const [result] = await tx
        .update(schedules)
        .set({ ...values, updatedAt: now })
        .where(and(eq(schedules.deploymentId, deploymentId), eq(schedules.claimedBy, token)));
      held += result.affectedRows;
    }
    return held;
  });
}
