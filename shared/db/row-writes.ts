import { eq } from 'drizzle-orm';
import type { MySqlColumn, MySqlTable } from 'drizzle-orm/mysql-core';
import type { Executor } from './executor';

/**
 * The writes of a table keyed by `id` that every such table has: a new row, some columns of a
 * row changed, a row deleted. Defined once (db/<table>.ts files export them for their table) so
 * each table's module keeps only what is its own. Who may write which row is the caller's to
 * check first (a tenant's row found, locked).
 */
export function rowWrites<T extends MySqlTable & { id: MySqlColumn }, Changeable extends keyof T['$inferSelect']>(table: T) {
  const keyed = (id: string) => eq(table.id, id);
  return {
    insert: async (db: Executor, row: T['$inferInsert']): Promise<void> => {
      await db.insert(table as MySqlTable).values(row);
    },
    update: async (db: Executor, id: string, changes: Partial<Pick<T['$inferSelect'], Changeable>>): Promise<void> => {
      await db.update(table as MySqlTable).set(changes).where(keyed(id));
    },
    remove: async (db: Executor, id: string): Promise<void> => {
      await db.delete(table as MySqlTable).where(keyed(id));
    },
  };
}
