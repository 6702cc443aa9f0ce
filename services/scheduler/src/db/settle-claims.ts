import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '@shared/db/connect';
import { retryTransient } from '@shared/db/retry-transient';
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
  settlement: Settlement;
}

/**
 * Writes the outcome of one claimed batch with at most three statements (advance, deactivate,
 * retry; usually only advance). Each matches a row only while it still carries the batch's
 * claim token: if the lease lapsed and another worker re-claimed the row, or a snapshot
 * replanned it, this worker's result is stale and changes nothing. Returns how many rows
 * were still held.
 *
 * No transaction around them: each row's settlement is independent of the others' and each
 * statement is atomic on its own, so a crash between two statements leaves the rows of the
 * later ones claimed, which is the same as a crash before settling (their lease lapses, the
 * occurrence is fired again and answered from the run already recorded). Autocommit saves
 * the BEGIN and COMMIT round trips of every round.
 */
export async function settleClaims(db: Database, token: string, settlements: ClaimSettlement[], now: Date): Promise<number> {
  const advance = settlements.filter((s) => s.settlement.kind === 'advance');
  const deactivate = settlements.filter((s) => s.settlement.kind === 'deactivate');
  const retry = settlements.filter((s) => s.settlement.kind === 'retry');
  if (settlements.length === 0) return 0;
  const held = (rows: ClaimSettlement[]) =>
    and(eq(schedules.claimedBy, token), inArray(schedules.deploymentId, rows.map((r) => r.deploymentId)));
  const byRow = (rows: ClaimSettlement[], value: (s: Settlement) => Date | boolean | null): SQL =>
    sql`CASE ${schedules.deploymentId} ${sql.join(
      rows.map((r) => sql`WHEN ${r.deploymentId} THEN ${value(r.settlement)}`),
      sql` `,
    )} END`;
  const nextOf = (s: Settlement) => (s.kind === 'advance' ? s.next : null);

  // retryTransient: a deadlock or lock wait timeout rolls back the one statement, which is run again.
  const update = async (rows: ClaimSettlement[], values: Parameters<ReturnType<Database['update']>['set']>[0]): Promise<number> => {
    if (rows.length === 0) return 0;
    const [result] = await retryTransient(() => db.update(schedules).set(values).where(held(rows)));
    return result.affectedRows;
  };
  return (
    (await update(advance, {
      active: byRow(advance, (s) => nextOf(s) !== null),
      nextOccurrenceAt: byRow(advance, (s) => nextOf(s)?.occurrence ?? null),
      nextFireAt: byRow(advance, (s) => nextOf(s)?.fireAt ?? null),
      claimedBy: null,
      claimUntil: null,
      updatedAt: now,
    })) +
    (await update(deactivate, { active: false, nextOccurrenceAt: null, nextFireAt: null, claimedBy: null, claimUntil: null, updatedAt: now })) +
    (await update(retry, { claimUntil: byRow(retry, (s) => (s.kind === 'retry' ? s.retryAt : null)), updatedAt: now }))
  );
}
