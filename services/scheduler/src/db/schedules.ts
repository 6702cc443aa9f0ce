import { eq, sql } from 'drizzle-orm';
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

export type ScheduleInsert = typeof schedules.$inferInsert;

export async function insertSchedule(db: Executor, values: ScheduleInsert): Promise<void> {
  await db.insert(schedules).values(values);
}

/**
 * Inserts the row unless the deployment has one already, which is then left as it is (a
 * no-op ON DUPLICATE KEY UPDATE, not INSERT IGNORE, which would also turn other errors into
 * warnings). One autocommit statement: for a first snapshot, whose revision no stored row
 * can be older than.
 */
export async function insertScheduleUnlessStored(db: Executor, values: ScheduleInsert): Promise<void> {
  await db.insert(schedules).values(values).onDuplicateKeyUpdate({ set: { deploymentId: sql`${schedules.deploymentId}` } });
}

export async function updateSchedule(
  db: Executor,
  deploymentId: string,
  values: Partial<Omit<typeof schedules.$inferInsert, 'deploymentId'>>,
): Promise<void> {
  await db.update(schedules).set(values).where(eq(schedules.deploymentId, deploymentId));
}
