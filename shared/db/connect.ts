import { drizzle, type MySql2Database } from 'drizzle-orm/mysql2';
import mysql from 'mysql2/promise';

export type Database = MySql2Database<Record<string, never>>;

export interface DatabaseSettings {
  MYSQL_URL: string;
  MYSQL_PASSWORD?: string;
  MYSQL_POOL_SIZE: number;
  /** Longest a query waits for a pooled connection (including connecting one); see DatabaseConfig. */
  MYSQL_ACQUIRE_TIMEOUT_MS?: number;
  /** Most queries waiting for a connection at once; see DatabaseConfig. */
  MYSQL_QUEUE_LIMIT?: number;
}

/** The DatabaseConfig defaults, for callers (tools, tests) that build settings by hand. */
const DEFAULT_ACQUIRE_TIMEOUT_MS = 3000;
const DEFAULT_QUEUE_LIMIT = 1000;

export interface DatabaseHandle {
  db: Database;
  pool: mysql.Pool;
  name: string;
  ping(): Promise<void>;
  close(): Promise<void>;
}

function connectionOptions(settings: DatabaseSettings): mysql.PoolOptions {
  const url = new URL(settings.MYSQL_URL);
  return {
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username || 'root'),
    password: settings.MYSQL_PASSWORD ?? decodeURIComponent(url.password),
    // Every DATETIME is UTC; without this mysql2 would read them in the process's local zone.
    timezone: 'Z',
    supportBigNumbers: true,
    connectionLimit: settings.MYSQL_POOL_SIZE,
    queueLimit: settings.MYSQL_QUEUE_LIMIT ?? DEFAULT_QUEUE_LIMIT,
    // A server that accepts TCP but never answers must not hold a new connection for mysql2's 10 s.
    connectTimeout: settings.MYSQL_ACQUIRE_TIMEOUT_MS ?? DEFAULT_ACQUIRE_TIMEOUT_MS,
    enableKeepAlive: true,
    // mysql2 captures a stack trace for every query (to point a failed query's stack at its
    // caller): a twentieth of a create's CPU. A failed query still says what failed, by its
    // error code and message, and the handler's own stack shows where it was called.
    trace: false,
  };
}

/**
 * mysql2's pool queues a query for a connection without a time limit, and fails its own
 * limits with code-less errors. Every acquisition (queries and transactions both go through
 * the core pool's getConnection) is bounded here, and those errors get a code, so that
 * shared/db/database-unavailable.ts can answer them 503 instead of a request waiting forever.
 * A waiter that timed out hands a connection that reaches it later straight back.
 */
function boundConnectionWaits(pool: mysql.Pool, timeoutMs: number): void {
  type Callback = (err: NodeJS.ErrnoException | null, connection?: { release(): void }) => void;
  const core = (pool as unknown as { pool: { getConnection(cb: Callback): void } }).pool;
  const acquire = core.getConnection.bind(core);
  core.getConnection = (cb: Callback) => {
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      cb(withCode(new Error(`no database connection became free within ${timeoutMs} ms`), 'POOL_ACQUIRE_TIMEOUT'));
    }, timeoutMs);
    acquire((err, connection) => {
      if (settled) {
        connection?.release();
        return;
      }
      settled = true;
      clearTimeout(timer);
      if (err && err.code === undefined) {
        if (err.message === 'Queue limit reached.') withCode(err, 'POOL_QUEUE_LIMIT');
        else if (err.message === 'Pool is closed.') withCode(err, 'POOL_CLOSED');
      }
      cb(err, connection);
    });
  };
}

function withCode(err: NodeJS.ErrnoException, code: string): NodeJS.ErrnoException {
  err.code = code;
  return err;
}

/** Creates the service's own database when missing, then a pool bound to it. */
export async function connectDatabase(settings: DatabaseSettings, name: string): Promise<DatabaseHandle> {
  if (!/^[A-Za-z0-9_]{1,64}$/.test(name)) throw new Error(`invalid database name ${JSON.stringify(name)}`);
  const options = connectionOptions(settings);
  const bootstrap = await mysql.createConnection({ ...options, connectionLimit: undefined } as mysql.ConnectionOptions);
  try {
    await bootstrap.query(`CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
  } finally {
    await bootstrap.end();
  }
  const pool = mysql.createPool({ ...options, database: name });
  boundConnectionWaits(pool, settings.MYSQL_ACQUIRE_TIMEOUT_MS ?? DEFAULT_ACQUIRE_TIMEOUT_MS);
  const db = drizzle(pool) as Database;
  return {
    db,
    pool,
    name,
    ping: async () => {
      await pool.query('SELECT 1');
    },
    close: () => pool.end(),
  };
}

export async function dropDatabase(settings: DatabaseSettings, name: string): Promise<void> {
  const conn = await mysql.createConnection(connectionOptions(settings) as mysql.ConnectionOptions);
  try {
    await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
  } finally {
    await conn.end();
  }
}
