import { eq } from 'drizzle-orm';
import type { Executor, ReadOptions } from '@shared/db/executor';
import { schedules, type ScheduleRow } from './schema';

/**
 * The deployment's row, if the scheduler has heard of it. Not tenant-scoped: deployment ids are
 * unique across tenants, and the row is found by the deployment an event or a claim names.
 */
export async function findSchedule(db: Executor, deploymentId: string, options: ReadOptions = {}): Promise<ScheduleRow | undefined> {
  const query = db.select().from(schedules).where(eq(schedules.deploymentId, deploymentId));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

export async function insertSchedule(db: Executor, values: typeof schedules.$inferInsert): Promise<void> {
  await db.insert(schedules).values(values);
}

export async function updateSchedule(
  db: Executor,
  deploymentId: string,
  values: Partial<Omit<typeof schedules.$inferInsert, 'deploymentId'>>,
): Promise<void> {
  await db.update(schedules).set(values).where(eq(schedules.deploymentId, deploymentId));
}
