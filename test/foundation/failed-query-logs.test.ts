import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sql } from 'drizzle-orm';
import { hashApiKeySecret } from '../../services/gateway/src/auth/api-key-secret';
import { loadGatewayConfig } from '../../services/gateway/src/config';
import { startGateway, type RunningGateway } from '../../services/gateway/src/start-gateway';
import { connectDatabase, dropDatabase, type DatabaseHandle } from '@shared/db/connect';
import { createLogger, setLogSink } from '@shared/log/logger';
import { apiClient } from '../support/api';
import { infrastructure } from '../support/infrastructure';

/**
 * A failed query's error carries its statement and every parameter (drizzle's DrizzleQueryError
 * message is "Failed query: ... params: ..."), and the database's own message can quote a value
 * (a duplicate entry). Whoever logs the error, the line names the operation and the error code,
 * never a value.
 */
const DATABASE = 't_failed_query_logs';
let handle: DatabaseHandle;
let gateway: RunningGateway | undefined;

async function captureLogs(run: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const previous = setLogSink((line) => lines.push(line));
  try {
    await run();
  } finally {
    setLogSink(previous);
  }
  return lines;
}

beforeAll(async () => {
  const infra = await infrastructure();
  handle = await connectDatabase({ MYSQL_URL: infra.mysqlUrl, MYSQL_POOL_SIZE: 2 }, DATABASE);
  await handle.pool.query('CREATE TABLE IF NOT EXISTS sealed (id INT PRIMARY KEY, secret VARCHAR(200) NOT NULL UNIQUE)');
  await handle.pool.query('DELETE FROM sealed');
});

afterAll(async () => {
  await gateway?.stop();
  await handle.close();
  const infra = await infrastructure();
  await dropDatabase({ MYSQL_URL: infra.mysqlUrl, MYSQL_POOL_SIZE: 1 }, DATABASE);
  await dropDatabase({ MYSQL_URL: infra.mysqlUrl, MYSQL_POOL_SIZE: 1 }, `${DATABASE}_gw`);
});

describe('failed queries are logged without their parameters', () => {
  test('a duplicate entry: neither drizzle params nor the value quoted by the database reach the line', async () => {
    const secret = 'sk-sealed-0123456789abcdefSECRET';
    const insert = (id: number) => handle.db.execute(sql`INSERT INTO sealed (id, secret) VALUES (${id}, ${secret})`);
    await insert(1);
    const failure = await insert(2).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect(String((failure as Error).message)).toContain(secret); // what used to be logged

    const lines = await captureLogs(async () => {
      const logger = createLogger('debug', { service: 'test' }).child({ component: 'writer' });
      logger.error('insert failed', { operation: 'sealed.insert', error: failure });
      logger.warn('wrapped', { error: new Error('outer', { cause: failure }) });
    });
    const text = lines.join('\n');
    expect(text).not.toContain(secret);
    expect(text).not.toContain('params');
    const [line] = lines.map((l) => JSON.parse(l));
    expect(line.operation).toBe('sealed.insert');
    // The error code and the statement text (placeholders only) stay, for the operator.
    expect(JSON.stringify(line.error)).toContain('ER_DUP_ENTRY');
    expect(JSON.stringify(line.error)).toContain('INSERT INTO sealed (id, secret) VALUES (?, ?)');
    expect(JSON.stringify(JSON.parse(lines[1]!).error)).toContain('ER_DUP_ENTRY');
  });

  test("the gateway's failed key lookup logs neither the presented key nor its hash", async () => {
    const infra = await infrastructure();
    gateway = await startGateway(
      loadGatewayConfig({
        MYSQL_URL: infra.mysqlUrl,
        NATS_URL: infra.natsUrl,
        BUS_PREFIX: 'tfailedquerylogs',
        DATABASE_NAME: `${DATABASE}_gw`,
        PORT: '0',
      }),
    );
    // A schema fault (not a lost connection): the lookup query itself fails.
    await gateway.host.database.pool.query('DROP TABLE api_keys');
    const key = 'sk-agents-presentedKeyThatMustNeverBeLogged0123456789';
    const lines = await captureLogs(async () => {
      const res = await apiClient(gateway!.url, key)('GET', '/v1/models');
      expect(res.status).toBeGreaterThanOrEqual(500);
      expect(res.body.type).toBe('error');
    });
    const text = lines.join('\n');
    expect(text).not.toContain(key);
    expect(text).not.toContain(hashApiKeySecret(key));
    expect(text).toContain('ER_NO_SUCH_TABLE');
  });
});
