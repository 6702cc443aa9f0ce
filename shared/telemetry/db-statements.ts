import { context, SpanKind, trace } from '@opentelemetry/api';
import { ATTR_DB_NAMESPACE, ATTR_DB_OPERATION_NAME, ATTR_DB_QUERY_TEXT, ATTR_DB_SYSTEM_NAME } from '@opentelemetry/semantic-conventions';
import type mysql from 'mysql2/promise';
import { Gauge } from 'prom-client';
import type { Seam, Telemetry } from './telemetry';
import { TimedOutcomes } from './timed-outcomes';

/** Statement latency buckets in seconds: a point read is a fraction of a millisecond, a group commit a few. */
const STATEMENT_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** The operation label: the statement's first word when it is one of these, else `other` (a bounded set). */
const OPERATIONS = new Set(['select', 'insert', 'update', 'delete', 'replace', 'begin', 'commit', 'rollback', 'savepoint', 'release', 'set', 'with']);
const FIRST_WORD = /^\s*\(?\s*([A-Za-z]+)/;

export function statementOperation(sql: string): string {
  const word = FIRST_WORD.exec(sql)?.[1]?.toLowerCase();
  return word !== undefined && OPERATIONS.has(word) ? word : 'other';
}

/** A statement's text in a span: long enough to recognise it, bounded (a batch insert's can be huge). */
const QUERY_TEXT_MAX_CHARS = 2000;

/** mysql2's core pool, whose queues say how the connections are used (read at scrape time only). */
interface CorePool {
  _allConnections: { length: number };
  _freeConnections: { length: number };
  _connectionQueue: { length: number };
  config: { connectionLimit: number };
}

type Statement = string | { sql: string };
type Run = (...args: unknown[]) => Promise<unknown>;

/**
 * A service's database statements and pool: statements by operation and outcome, their time by
 * operation (from the call to the result, so a wait for a pool connection is in it: the waiting
 * gauge says when that is the cause), the pool's connections in use and idle and the queries
 * waiting for one, and a client span per statement when a span is active (a statement of no
 * traced work, a relay's poll or the scheduler's, would be a trace of one span every second).
 *
 * Statements are observed where drizzle hands them to mysql2 (the promise pool's query/execute,
 * and a transaction's connection's), in the caller's async context: deeper, in mysql2's core, a
 * statement that waited for a connection runs in the context of whoever released it.
 */
export class DbStatements {
  private readonly pools = new Set<CorePool>();

  constructor(
    private readonly telemetry: Telemetry,
    private readonly statements: TimedOutcomes,
  ) {
    const pools = this.pools;
    const sum = (read: (pool: CorePool) => number) => [...pools].reduce((n, pool) => n + read(pool), 0);
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database connections of this process\'s pool, by state: in_use (lent to a statement or a transaction) or idle.',
      labelNames: ['state'],
      registers: [telemetry.registry],
      collect() {
        const all = sum((p) => p._allConnections.length);
        const idle = sum((p) => p._freeConnections.length);
        this.set({ state: 'in_use' }, all - idle);
        this.set({ state: 'idle' }, idle);
      },
    });
    // Pool totals read at scrape time, summed over the pools this process instruments.
    const poolSum = (name: string, help: string, read: (pool: CorePool) => number) =>
      new Gauge({
        name,
        help,
        registers: [telemetry.registry],
        collect() {
          this.set(sum(read));
        },
      });
    poolSum('db_pool_max_connections', 'Most connections the pool opens (MYSQL_POOL_SIZE).', (p) => p.config.connectionLimit);
    poolSum('db_pool_waiting', 'Statements and transactions waiting for a pool connection now.', (p) => p._connectionQueue.length);
  }

  /** Observes every statement run through `pool` (as drizzle runs them) and reports the pool's use. */
  instrument(pool: mysql.Pool, database: string): void {
    this.pools.add((pool as unknown as { pool: CorePool }).pool);
    const observeOn = (target: { query: unknown; execute: unknown }) => {
      for (const method of ['query', 'execute'] as const) {
        const run = (target[method] as Run).bind(target);
        target[method] = (...args: unknown[]) => this.observe(database, args[0] as Statement, () => run(...args));
      }
    };
    observeOn(pool);
    // A transaction's statements go through the connection it took from the pool.
    const getConnection = pool.getConnection.bind(pool);
    pool.getConnection = async () => {
      const connection = await getConnection();
      observeOn(connection);
      return connection;
    };
  }

  private observe(database: string, statement: Statement, run: () => Promise<unknown>): Promise<unknown> {
    const sql = typeof statement === 'string' ? statement : statement.sql;
    const operation = statementOperation(sql);
    const finish = this.statements.start(operation);
    const active = this.telemetry.tracingEnabled ? trace.getSpan(context.active()) : undefined;
    const span = active?.isRecording()
      ? this.telemetry.tracer.startSpan(`${operation} ${database}`, {
          kind: SpanKind.CLIENT,
          attributes: {
            [ATTR_DB_SYSTEM_NAME]: 'mysql',
            [ATTR_DB_NAMESPACE]: database,
            [ATTR_DB_OPERATION_NAME]: operation,
            // Placeholders, not values: drizzle sends every value as a parameter.
            [ATTR_DB_QUERY_TEXT]: sql.length > QUERY_TEXT_MAX_CHARS ? sql.slice(0, QUERY_TEXT_MAX_CHARS) : sql,
          },
        })
      : undefined;
    const result = run();
    result.then(
      () => finish('ok', span),
      () => finish('error', span),
    );
    return result;
  }
}

export const dbStatements: Seam<DbStatements> = (telemetry) =>
  new DbStatements(telemetry, new TimedOutcomes(telemetry, 'operation', {
    total: ['db_statements_total', 'SQL statements this process ran, by operation and outcome (ok or error).'],
    duration: ['db_statement_duration_seconds', 'Time from a statement\'s call to its result, a wait for a pool connection included, by operation.', STATEMENT_SECONDS],
  }));
