import { sql } from 'drizzle-orm';
import type { Executor } from './executor';

/** What drizzle's `.prepare()` gives: the statement's text and mapping, run with placeholder values. */
interface PreparedQuery<R> {
  execute(values?: Record<string, unknown>): Promise<R>;
}

/**
 * A hot statement built by drizzle once, then run with its placeholders' values on whatever
 * executor each call has: the pool, or an open transaction's connection. Building a statement
 * (drizzle's query objects turned into SQL text, every call) was the largest single part of a
 * turn's CPU in the deployments service, more than mysql2 and NATS together.
 *
 * drizzle binds a prepared query to the session that built it; its mysql2 driver runs it through
 * that session's `client` (the pool, or the transaction's connection) and nothing else. A call
 * runs a view of the one built statement whose `client` is the executor's, so a statement built
 * on the pool runs inside a transaction on that transaction's connection, under its locks. The
 * field is drizzle's (pinned in package.json); the tests that run appends and reads through
 * these statements (and test/foundation/prepared-statements.test.ts) fail if it moves.
 */
export function prepared<R>(build: (db: Executor) => PreparedQuery<R>): (executor: Executor, values: Record<string, unknown>) => Promise<R> {
  let statement: PreparedQuery<R> | undefined;
  return (executor, values) => {
    statement ??= build(executor);
    return runOn(statement, executor, values);
  };
}

/**
 * A family of prepared statements, one per shape (`key`: a multi-row insert's row count, an
 * update's set of columns), each built once on first use. Keys must come from a small set: each
 * is a statement kept for the process's life.
 */
export function preparedByShape<K extends string | number, R>(
  build: (db: Executor, key: K) => PreparedQuery<R>,
): (executor: Executor, key: K, values: Record<string, unknown>) => Promise<R> {
  const statements = new Map<K, PreparedQuery<R>>();
  return (executor, key, values) => {
    let statement = statements.get(key);
    if (!statement) statements.set(key, (statement = build(executor, key)));
    return runOn(statement, executor, values);
  };
}

/**
 * A multi-row INSERT of `columns`, prepared per row count up to `maxRows` (most writes are one to
 * a few rows); more rows are built as before, each count being a statement kept for good.
 * `insert` is the statement for some rows: placeholders when it is prepared (`<column><row>`),
 * the rows themselves beyond `maxRows`. Resolves with the driver's result (its affected rows).
 */
export function preparedInsert<C extends string>(
  columns: readonly C[],
  maxRows: number,
  insert: (db: Executor, rows: Array<Record<C, unknown>>) => PromiseLike<unknown> & { prepare(): PreparedQuery<unknown> },
): (executor: Executor, rows: ReadonlyArray<Record<C, unknown>>) => Promise<unknown> {
  const byCount = preparedByShape((db, count: number) =>
    insert(db, Array.from({ length: count }, (_, i) => Object.fromEntries(columns.map((column) => [column, sql.placeholder(`${column}${i}`)])) as Record<C, unknown>)).prepare(),
  );
  return async (executor, rows) => {
    if (rows.length === 0) return undefined;
    if (rows.length > maxRows) return insert(executor, [...rows]);
    const values: Record<string, unknown> = {};
    rows.forEach((row, i) => {
      for (const column of columns) values[`${column}${i}`] = row[column];
    });
    return byCount(executor, rows.length, values);
  };
}

/**
 * An UPDATE's SET of placeholders, each named as its column (the call's values by those names).
 * drizzle's update maps a placeholder through its column, as an insert's values do; its types
 * name only values and SQL there.
 */
export function setPlaceholders<C extends string>(columns: readonly C[]): Record<C, never> {
  return Object.fromEntries(columns.map((column) => [column, sql.placeholder(column)])) as Record<C, never>;
}

function runOn<R>(statement: PreparedQuery<R>, executor: Executor, values: Record<string, unknown>): Promise<R> {
  const client = (executor as unknown as { session: { client: unknown } }).session.client;
  return (Object.create(statement, { client: { value: client } }) as PreparedQuery<R>).execute(values);
}
