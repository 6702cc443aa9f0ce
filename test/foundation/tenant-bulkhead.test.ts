/**
 * One tenant can never slow or stall another: each service replica handles at most
 * TENANT_MAX_CONCURRENCY requests of one tenant at a time; more wait in that tenant's own FIFO
 * queue (TENANT_MAX_QUEUE), and past it are refused at once with 429 rate_limit_error. Another
 * tenant's request is never queued behind them, so it still finds a database connection.
 *
 * The hold is real: the test takes a row lock on tenant A's deployment in MariaDB, so A's pause
 * waits inside the deployments service holding a pool connection, as a slow query would.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { PoolConnection } from 'mysql2/promise';
import { connectDatabase, type DatabaseHandle } from '@shared/db/connect';
import { apiClient, type ApiClient, type ApiResponse } from '../support/api';
import { createDeployment, deploymentWorld } from '../support/fixtures';
import { infrastructure } from '../support/infrastructure';
import { Stack } from '../support/stack';
import { until } from '../support/eventually';
import { expectError } from '../support/expect';

let stack: Stack;
let a: ApiClient;
let b: ApiClient;
let database: DatabaseHandle;

beforeAll(async () => {
  stack = await Stack.start({
    env: {
      LOG_LEVEL: 'error',
      // A small pool: without the bulkhead, tenant A's held requests take every connection.
      MYSQL_POOL_SIZE: '3',
      MYSQL_ACQUIRE_TIMEOUT_MS: '500',
      TENANT_MAX_CONCURRENCY: '1',
      TENANT_MAX_QUEUE: '3',
    },
  });
  a = apiClient(stack.url, (await stack.createKey()).secret);
  b = apiClient(stack.url, (await stack.createKey()).secret);
  database = await connectDatabase({ MYSQL_URL: (await infrastructure()).mysqlUrl, MYSQL_POOL_SIZE: 2 }, `t_${stack.id}_deployments`);
});

afterAll(async () => {
  await database?.close();
  await stack?.stop();
});

/** The deployments service's bulkhead gauges, read from its real /metrics. */
async function bulkheadGauges(): Promise<{ active: number; queued: number; refused: number }> {
  const text = await (await fetch(`http://127.0.0.1:${stack.service('deployments').healthPort()}/metrics`)).text();
  const read = (pattern: RegExp) => Number(text.match(pattern)?.[1] ?? NaN);
  return {
    active: read(/^bus_tenant_requests_active (\d+)$/m),
    queued: read(/^bus_tenant_requests_queued (\d+)$/m),
    refused: read(/^bus_tenant_requests_refused_total\{reason="queue_full"\} (\d+)$/m),
  };
}

/** A condition on the gauges, for `until`. */
const gauges = (check: (g: Awaited<ReturnType<typeof bulkheadGauges>>) => boolean) => async () => check(await bulkheadGauges());

/** Holds the row lock of a deployment until the returned release runs. */
async function lockDeployment(id: string): Promise<() => Promise<void>> {
  const connection: PoolConnection = await database.pool.getConnection();
  await connection.query('BEGIN');
  await connection.query('SELECT id FROM deployments WHERE id = ? FOR UPDATE', [id]);
  return async () => {
    await connection.query('COMMIT');
    connection.release();
  };
}

describe('per-tenant bulkhead', () => {
  test('a tenant at its limit queues in order and is refused past its queue; another tenant is served', async () => {
    const world = await deploymentWorld(a);
    const deployment = await createDeployment(a, world.body());
    const path = (action: string) => `/v1/deployments/${deployment.id}/${action}`;
    const unlock = await lockDeployment(deployment.id);
    let released = false;
    try {
      // One request of A runs (and waits on the lock); the next three wait in A's queue, sent
      // one at a time so their arrival order is known.
      const sent: Array<Promise<ApiResponse>> = [a('POST', path('pause'))];
      await until('A to hold its one slot', gauges((g) => g.active === 1));
      for (const [i, action] of (['unpause', 'archive', 'unpause'] as const).entries()) {
        sent.push(a('POST', path(action)));
        await until(`A's request ${i + 2} to be queued`, gauges((g) => g.queued === i + 1));
      }

      // A's queue is full: refused at once, with the envelope and a message saying to retry.
      const refused = await a('POST', path('pause'));
      expectError(refused, 429, 'rate_limit_error');
      expect(refused.body.error.message).toMatch(/retry/i);

      // Tenant B is not queued behind A, and finds a database connection.
      const other = await b('GET', '/v1/deployments');
      expect(other.status).toBe(200);
      expect(other.body.data).toEqual([]);

      await unlock();
      released = true;
      const answers = await Promise.all(sent);
      // Run in arrival order, one at a time: pause, unpause, archive, then unpause of an
      // archived deployment, which is refused. Any other order gives other answers.
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 400]);
      expect(answers[0]!.body.status).toBe('paused');
      expect(answers[1]!.body.status).toBe('active');
      expect(answers[2]!.body.archived_at).not.toBeNull();
      expect(answers[3]!.body.error.message).toMatch(/archived/);
      expect(await bulkheadGauges()).toEqual({ active: 0, queued: 0, refused: 1 });
    } finally {
      if (!released) await unlock();
    }
  });

  test('a stopping service still answers the requests it queued', async () => {
    const world = await deploymentWorld(a);
    const deployment = await createDeployment(a, world.body());
    const unlock = await lockDeployment(deployment.id);
    let released = false;
    try {
      const running = a('POST', `/v1/deployments/${deployment.id}/pause`);
      await until('A to hold its one slot', gauges((g) => g.active === 1));
      const queued = a('POST', `/v1/deployments/${deployment.id}/unpause`);
      await until('A to have one request queued', gauges((g) => g.queued === 1));

      const stopped = stack.stopService('deployments');
      await unlock();
      released = true;
      const [first, second] = await Promise.all([running, queued]);
      await stopped;
      expect([first.status, first.body.status]).toEqual([200, 'paused']);
      expect([second.status, second.body.status]).toEqual([200, 'active']);
    } finally {
      if (!released) await unlock();
    }
  });
});
