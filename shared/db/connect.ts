import { drizzle, type MySql2Database } from 'drizzle-orm/mysql2';
import mysql from 'mysql2/promise';

export type Database = MySql2Database<Record<string, never>>;

export interface DatabaseSettings {
  MYSQL_URL: string;
  MYSQL_PASSWORD?: string;
  MYSQL_POOL_SIZE: number;
}

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
    enableKeepAlive: true,
  };
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
