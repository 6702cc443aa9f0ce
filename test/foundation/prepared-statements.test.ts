/**
 * shared/db/prepared.ts: a statement drizzle built once runs on each call's executor. Inside a
 * transaction it runs on that transaction's connection (a rollback takes its write back, a row it
 * locks stays locked to others), on the pool outside one, and a JSON or date column's value goes
 * through the column's own mapping as drizzle's ordinary inserts do. If drizzle moved the field
 * a prepared query runs through, these fail.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { eq, sql } from 'drizzle-orm';
import { datetime, int, mysqlTable } from 'drizzle-orm/mysql-core';
import { connectDatabase, dropDatabase, type DatabaseHandle } from '@shared/db/connect';
import { jsonColumn } from '@shared/db/json-column';
import { prepared, preparedByShape, preparedInsert } from '@shared/db/prepared';
import { infrastructure } from '../support/infrastructure';

const DATABASE = 't_prepared_statements';
const things = mysqlTable('things', { id: int('id').primaryKey(), body: jsonColumn<{ n: number }>('body').notNull(), at: datetime('at', { mode: 'date', fsp: 3 }).notNull() });
let handle: DatabaseHandle;
let settings: Parameters<typeof connectDatabase>[0];

const insertThings = preparedByShape((db, count: number) =>
  db
    .insert(things)
    .values(Array.from({ length: count }, (_, i) => ({ id: sql.placeholder(`id${i}`), body: sql.placeholder(`body${i}`), at: sql.placeholder(`at${i}`) })))
    .prepare(),
);
const lockThing = prepared((db) => db.select().from(things).where(eq(things.id, sql.placeholder('id'))).for('update').prepare());
const findThing = prepared((db) => db.select().from(things).where(eq(things.id, sql.placeholder('id'))).prepare());

beforeAll(async () => {
  settings = { MYSQL_URL: (await infrastructure()).mysqlUrl, MYSQL_POOL_SIZE: 3, MYSQL_ACQUIRE_TIMEOUT_MS: 3000 };
  handle = await connectDatabase(settings, DATABASE);
  await handle.pool.query('DROP TABLE IF EXISTS things');
  await handle.pool.query('CREATE TABLE things (id INT PRIMARY KEY, body JSON NOT NULL, at DATETIME(3) NOT NULL)');
});

afterAll(async () => {
  await handle.close();
  await dropDatabase(settings, DATABASE);
});

test('on the pool and in a transaction; a rollback takes the write back; each shape built once', async () => {
  const at = new Date('2026-11-29T08:00:00.123Z');
  await insertThings(handle.db, 2, { id0: 1, body0: { n: 1 }, at0: at, id1: 2, body1: { n: 2 }, at1: at });
  await handle.db
    .transaction(async (tx) => {
      await insertThings(tx, 1, { id0: 3, body0: { n: 3 }, at0: at });
      expect(await findThing(tx, { id: 3 })).toHaveLength(1);
      throw new Error('roll back');
    })
    .catch(() => undefined);
  expect(await findThing(handle.db, { id: 3 })).toEqual([]);
  expect(await findThing(handle.db, { id: 2 })).toEqual([{ id: 2, body: { n: 2 }, at }]);
  expect((await handle.db.select().from(things)).map((r) => r.id).sort()).toEqual([1, 2]);
});

test('a row locked by a prepared FOR UPDATE in a transaction is locked to every other connection until it ends', async () => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let locked: () => void = () => undefined;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const first = handle.db.transaction(async (tx) => {
    await lockThing(tx, { id: 1 });
    locked();
    await held;
  });
  await isLocked;
  // NOWAIT (MySQL 8 and MariaDB both): refused at once while the first transaction holds the row.
  const other = await handle.pool.getConnection();
  try {
    await other.query('BEGIN');
    await expect(other.query('SELECT id FROM things WHERE id = 1 FOR UPDATE NOWAIT')).rejects.toThrow();
    await other.query('ROLLBACK');
    release();
    await first;
    await other.query('BEGIN');
    expect(((await other.query('SELECT id FROM things WHERE id = 1 FOR UPDATE NOWAIT'))[0] as unknown[]).length).toBe(1);
    await other.query('ROLLBACK');
  } finally {
    other.release();
  }
});

test('a prepared multi-row insert: up to its bound by placeholders, beyond it built as before; both land whole', async () => {
  const insert = preparedInsert(['id', 'body', 'at'], 2, (db, rows) => db.insert(things).values(rows as Array<typeof things.$inferInsert>));
  const at = new Date('2026-11-29T09:00:00.000Z');
  await insert(handle.db, [10, 11].map((id) => ({ id, body: { n: id }, at })));
  await insert(handle.db, [12, 13, 14].map((id) => ({ id, body: { n: id }, at })));
  await insert(handle.db, []);
  const rows = await handle.db.select().from(things);
  expect(rows.filter((r) => r.id >= 10).sort((a, b) => a.id - b.id)).toEqual([10, 11, 12, 13, 14].map((id) => ({ id, body: { n: id }, at })));
});
