import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sql } from 'drizzle-orm';
import { loadDeploymentsConfig } from '../../services/deployments/src/config';
import { startDeployments } from '../../services/deployments/src/start-deployments';
import { loadGatewayConfig } from '../../services/gateway/src/config';
import { startGateway, type RunningGateway } from '../../services/gateway/src/start-gateway';
import { connectDatabase, dropDatabase } from '@shared/db/connect';
import { asOverloadedIfDatabaseUnavailable, isDatabaseUnavailable } from '@shared/db/database-unavailable';
import { retryTransient } from '@shared/db/retry-transient';
import { ApiError } from '@shared/errors/api-error';
import { setLogSink } from '@shared/log/logger';
import type { ServiceHost } from '@shared/service-host/service-host';
import { apiClient, type ApiResponse } from '../support/api';
import { eventually } from '../support/eventually';
import { expectError } from '../support/expect';
import { createDeployment, deploymentWorld } from '../support/fixtures';
import { infrastructure } from '../support/infrastructure';
import { Stack } from '../support/stack';
import { TcpProxy } from '../support/tcp-proxy';

/**
 * A database that goes away (killed, restarted, failed over, out of connections) is a fault of
 * the backing service, not of the request: every service answers 503 overloaded_error, which
 * clients retry, never 500 api_error. The faults are real: a TCP relay in front of the real
 * MariaDB is cut under the service, a real pool is exhausted, a real deadlock is provoked.
 */
function expectOverloaded(response: ApiResponse): void {
  expectError(response, 503, 'overloaded_error');
  // Nothing about the database's address or the driver's error reaches the caller.
  // (The error alone: the random request id may spell anything.)
  expect(JSON.stringify(response.body.error)).not.toMatch(/127\.0\.0\.1|ECONN|PROTOCOL_|mysql|sql/i);
}

/** How long the pool may take to reconnect; the waits only bound it, no assertion depends on it. */
const RECONNECT = { timeoutMs: 5000, intervalMs: 50 };

let stack: Stack;
let proxy: TcpProxy;
let deployments: ServiceHost;

beforeAll(async () => {
  const infra = await infrastructure();
  const target = new URL(infra.mysqlUrl);
  proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 3306) });
  stack = await Stack.start({ services: ['catalog', 'vaults', 'scheduler'] });
  // The deployments service reaches MariaDB only through the TCP proxy; everything else directly.
  deployments = await startDeployments(
    loadDeploymentsConfig({ ...stack.env('deployments'), MYSQL_URL: proxy.rewrite(infra.mysqlUrl), HEALTH_HOST: '127.0.0.1' }),
    { clock: stack.clock },
  );
  await deployments.nc.flush();
  stack.services.set('deployments', deployments);
});

afterAll(async () => {
  await proxy.restore();
  await stack.stop();
  await proxy.stop();
});

describe('the database goes away under a service', () => {
  test('a database that stops answering without closing: /readyz still answers, not ready, within its time limit', async () => {
    proxy.freeze();
    try {
      const ready = await fetch(`http://127.0.0.1:${deployments.healthPort()}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: 'not_ready' });
    } finally {
      proxy.thaw();
    }
    const again = await eventually(
      'readiness after the thaw',
      async () => ((response) => (response.status === 200 ? response : undefined))(await fetch(`http://127.0.0.1:${deployments.healthPort()}/readyz`)),
      RECONNECT,
    );
    expect(again.status).toBe(200);
  });

  test('creates and gets answer 503 overloaded_error while it is cut, and the service recovers', async () => {
    const { secret } = await stack.createKey();
    const api = apiClient(stack.url, secret);
    const world = await deploymentWorld(api);
    const existing = await createDeployment(api, world.body());

    await proxy.cut();
    try {
      for (let i = 0; i < 4; i++) {
        expectOverloaded(await api('POST', '/v1/deployments', { body: world.body({ name: `during outage ${i}` }) }));
        expectOverloaded(await api('GET', `/v1/deployments/${existing.id}`));
      }
      expectOverloaded(await api('GET', '/v1/deployments'));
      // The service's own readiness says so, without the reason (which goes to its log).
      const ready = await fetch(`http://127.0.0.1:${deployments.healthPort()}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: 'not_ready' });
    } finally {
      await proxy.restore();
    }

    const created = await eventually(
      'a create after the outage',
      async () => ((res) => (res.status === 200 ? res : undefined))(await api('POST', '/v1/deployments', { body: world.body({ name: 'after the outage' }) })),
      RECONNECT,
    );
    expect(created.status).toBe(200);
    expect((await api('GET', `/v1/deployments/${existing.id}`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${deployments.healthPort()}/readyz`)).status).toBe(200);
  });

  test('HEALTH_HOST binds the health port to that address only', async () => {
    const port = deployments.healthPort();
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    // Linux routes all of 127/8 to loopback: a server bound to 127.0.0.1 does not answer on .2.
    expect(await fetch(`http://127.0.0.2:${port}/healthz`).then(() => 'answered', () => 'refused')).toBe('refused');
    // The default keeps listening on every address.
    const other = stack.service('catalog').healthPort();
    expect((await fetch(`http://127.0.0.2:${other}/healthz`)).status).toBe(200);
  });
});

describe("the gateway's own database (API key lookups) goes away", () => {
  let gateway: RunningGateway;
  let gatewayProxy: TcpProxy;
  const DATABASE = 't_dbfaults_gateway';

  beforeAll(async () => {
    const infra = await infrastructure();
    const target = new URL(infra.mysqlUrl);
    gatewayProxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 3306) });
    gateway = await startGateway(
      loadGatewayConfig({
        ...stack.env('gateway'),
        DATABASE_NAME: DATABASE,
        MYSQL_URL: gatewayProxy.rewrite(infra.mysqlUrl),
        PORT: '0',
        HOST: '127.0.0.1',
      }),
    );
  });

  test('HOST binds the public port to that address only', async () => {
    expect((await fetch(`http://127.0.0.1:${gateway.port}/healthz`)).status).toBe(200);
    expect(await fetch(`http://127.0.0.2:${gateway.port}/healthz`).then(() => 'answered', () => 'refused')).toBe('refused');
    expect((await fetch(`http://127.0.0.2:${stack.gateway.port}/healthz`)).status).toBe(200); // default: every address
  });

  afterAll(async () => {
    await gatewayProxy.restore();
    await gateway.stop();
    await gatewayProxy.stop();
    const infra = await infrastructure();
    await dropDatabase({ MYSQL_URL: infra.mysqlUrl, MYSQL_POOL_SIZE: 1 }, DATABASE);
  });

  test('a key lookup answers 503, /readyz says not ready without addresses or error text, the reason is logged', async () => {
    const key = (await gateway.keys.create({ organizationId: 'org_dbfaults', workspaceId: 'wrkspc_dbfaults', scope: 'read_write' })).secret;
    const lines: string[] = [];
    const previous = setLogSink((line) => lines.push(line));
    await gatewayProxy.cut();
    try {
      expectOverloaded(await apiClient(gateway.url, key)('GET', '/v1/models'));
      const ready = await fetch(`${gateway.url}/readyz`);
      expect(ready.status).toBe(503);
      const text = await ready.text();
      expect(JSON.parse(text)).toEqual({ status: 'not_ready' });
      expect(text).not.toContain(String(gatewayProxy.port));
    } finally {
      setLogSink(previous);
      await gatewayProxy.restore();
    }
    const logged = lines.map((line) => JSON.parse(line));
    expect(logged.some((line) => line.msg === 'not ready' && JSON.stringify(line.error).includes('ECONNREFUSED'))).toBe(true);

    const after = await eventually(
      'the gateway past its outage',
      async () => ((res) => (res.status !== 503 ? res : undefined))(await apiClient(gateway.url, key)('GET', '/v1/models')),
      RECONNECT,
    );
    // Authenticated again; the catalog itself is on the stack's bus prefix and answers.
    expect(after.status).toBe(200);
    expect((await fetch(`${gateway.url}/readyz`)).status).toBe(200);
  });
});

describe('pool exhaustion and deadlocks are retryable faults', () => {
  const DATABASE = 't_dbfaults_pool';

  afterAll(async () => {
    const infra = await infrastructure();
    await dropDatabase({ MYSQL_URL: infra.mysqlUrl, MYSQL_POOL_SIZE: 1 }, DATABASE);
  });

  test('a request never waits forever for a connection: acquire timeout and queue limit', async () => {
    const infra = await infrastructure();
    const handle = await connectDatabase(
      { MYSQL_URL: infra.mysqlUrl, MYSQL_POOL_SIZE: 1, MYSQL_ACQUIRE_TIMEOUT_MS: 100, MYSQL_QUEUE_LIMIT: 1 },
      DATABASE,
    );
    try {
      const held = await handle.pool.getConnection();
      const waiting = handle.db.execute(sql`SELECT 1`).then(
        () => null,
        (error: unknown) => error,
      );
      const refused = await handle.db.execute(sql`SELECT 2`).then(
        () => null,
        (error: unknown) => error,
      );
      expect(isDatabaseUnavailable(refused)).toBe(true); // the queue holds one waiter already
      const timedOut = await waiting;
      expect(isDatabaseUnavailable(timedOut)).toBe(true);
      const overloaded = asOverloadedIfDatabaseUnavailable(timedOut);
      expect(overloaded).toBeInstanceOf(ApiError);
      expect((overloaded as ApiError).type).toBe('overloaded_error');
      held.release();
      // The pool is whole again: the timed-out waiter handed its late connection back.
      expect(await handle.db.execute(sql`SELECT 3 AS n`)).toBeDefined();
      expect(await handle.db.execute(sql`SELECT 4 AS n`)).toBeDefined();
    } finally {
      await handle.close();
    }
  });

  test('a deadlock that outlives its retries is overloaded_error; a schema error stays an error', async () => {
    const infra = await infrastructure();
    const handle = await connectDatabase({ MYSQL_URL: infra.mysqlUrl, MYSQL_POOL_SIZE: 2 }, DATABASE);
    try {
      await handle.pool.query('CREATE TABLE IF NOT EXISTS pair (id INT PRIMARY KEY, n INT NOT NULL)');
      await handle.pool.query('REPLACE INTO pair VALUES (1, 0), (2, 0)');
      const [a, b] = [await handle.pool.getConnection(), await handle.pool.getConnection()];
      await a.query('BEGIN');
      await b.query('BEGIN');
      await a.query('UPDATE pair SET n = n + 1 WHERE id = 1');
      await b.query('UPDATE pair SET n = n + 1 WHERE id = 2');
      const outcomes = await Promise.allSettled([
        a.query('UPDATE pair SET n = n + 1 WHERE id = 2'),
        b.query('UPDATE pair SET n = n + 1 WHERE id = 1'),
      ]);
      await a.query('ROLLBACK');
      await b.query('ROLLBACK');
      a.release();
      b.release();
      const deadlock = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
      expect((deadlock.reason as { code?: string }).code).toBe('ER_LOCK_DEADLOCK');

      const afterRetries = await retryTransient(() => Promise.reject(deadlock.reason), 2).catch((error: unknown) => error);
      expect((asOverloadedIfDatabaseUnavailable(afterRetries) as ApiError).type).toBe('overloaded_error');

      const schema = await handle.db.execute(sql`SELECT * FROM no_such_table`).catch((error: unknown) => error);
      expect(isDatabaseUnavailable(schema)).toBe(false);
      expect(asOverloadedIfDatabaseUnavailable(schema)).toBe(schema);
    } finally {
      await handle.close();
    }
  });
});
