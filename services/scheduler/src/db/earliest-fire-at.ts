import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '@shared/db/executor';
import { schedules } from './schema';

/**
 * When the next unclaimed active row becomes due, or null when there is none. Claimed rows
 * (in flight elsewhere, or waiting out a retry delay) are left to the poll interval.
 */
export async function earliestFireAt(db: Executor): Promise<Date | null> {
  const [row] = await db
    .select({ at: schedules.nextFireAt })
    .from(schedules)
    .where(and(eq(schedules.active, true), isNull(schedules.claimedBy)))
    .orderBy(asc(schedules.nextFireAt))
    .limit(1);
  return row?.at ?? null;
}
