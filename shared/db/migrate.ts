import { migrate } from 'drizzle-orm/mysql2/migrator';
import type { DatabaseHandle } from './connect';

/**
 * Applies the service's committed migrations. Replicas starting together take a named lock so
 * only one migrates at a time; the others then find nothing left to do.
 */
export async function migrateDatabase(handle: DatabaseHandle, migrationsFolder: string): Promise<void> {
  const conn = await handle.pool.getConnection();
  const lock = `migrate_${handle.name}`;
  try {
    const [rows] = await conn.query('SELECT GET_LOCK(?, 120) AS acquired', [lock]);
    if ((rows as Array<{ acquired: number }>)[0]?.acquired !== 1) throw new Error('could not take the migration lock');
    await migrate(handle.db, { migrationsFolder });
  } finally {
    await conn.query('SELECT RELEASE_LOCK(?)', [lock]).catch(() => undefined);
    conn.release();
  }
}
