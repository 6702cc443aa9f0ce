import { and, count, eq, lte } from 'drizzle-orm';
import type { Executor } from '@shared/db/executor';
import { schedules } from './schema';

/** Active rows whose fire time has passed (claimed or not): the backlog gauge. */
export async function countDueSchedules(db: Executor, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(schedules)
    .where(and(eq(schedules.active, true), lte(schedules.nextFireAt, now)));
  return Number(row?.n ?? 0);
}
