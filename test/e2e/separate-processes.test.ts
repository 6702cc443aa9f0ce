import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { connect } from '@nats-io/transport-node';
import { deleteStreams } from '@shared/bus/streams';
import { dropDatabase } from '@shared/db/connect';
import { randomBase62 } from '@shared/ids/ids';
import { DEVELOPMENT_API_KEY } from '../../services/gateway/src/auth/development-key';
import { DATABASE_SERVICES, SERVICES } from '../../deploy/bin/services';
import { apiClient } from '../support/api';
import { expectError } from '../support/expect';
import { infrastructure } from '../support/infrastructure';
import { gatewayPort, startServiceProcess, type ServiceProcess } from '../support/processes';

/**
 * The product as it runs in production: five separate processes that share nothing but NATS
 * and the database server. Catches what an in-process stack cannot (e.g. a module only one
 * process happens to load).
 */
const id = randomBase62(8).toLowerCase();
const processes = new Map<string, ServiceProcess>();
let gatewayUrl = '';

beforeAll(async () => {
  const infra = await infrastructure();
  for (const service of SERVICES) {
    const { proc, line } = await startServiceProcess(service, {
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      MYSQL_URL: infra.mysqlUrl,
      NATS_URL: infra.natsUrl,
      BUS_PREFIX: `p${id}`,
      DATABASE_NAME: `p_${id}_${service}`,
      HEALTH_PORT: '0',
      PORT: '0',
    });
    processes.set(service, proc);
    if (service === 'gateway') gatewayUrl = `http://127.0.0.1:${gatewayPort(line)}`;
  }
  // Five processes start one after another, each migrating its database: seconds on a busy machine.
}, 60_000);

afterAll(async () => {
  for (const proc of processes.values()) proc.kill('SIGKILL');
  const infra = await infrastructure();
  for (const service of DATABASE_SERVICES) await dropDatabase({ MYSQL_URL: infra.mysqlUrl, MYSQL_POOL_SIZE: 1 }, `p_${id}_${service}`);
  const nc = await connect({ servers: infra.natsUrl });
  await deleteStreams(nc, `p${id}`);
  await nc.close();
});

describe('five separate processes', () => {
  test('serve the API through the bus', async () => {
    const call = apiClient(gatewayUrl, DEVELOPMENT_API_KEY);
    const models = await call('GET', '/v1/models');
    expect(models.status).toBe(200);
    expect(models.body.data.length).toBeGreaterThan(0);
    const deployments = await call('GET', '/v1/deployments');
    expect(deployments.status).toBe(200);
  });

  test('oversized headers: 431 with the envelope, from the gateway rather than the parser', async () => {
    const res = await apiClient(gatewayUrl, DEVELOPMENT_API_KEY)('GET', '/v1/models', { headers: { 'x-padding': 'p'.repeat(20 * 1024) } });
    expectError(res, 431, 'invalid_request_error');
  });

  test('SIGTERM drains and exits cleanly', async () => {
    const catalog = processes.get('catalog')!;
    catalog.kill('SIGTERM');
    expect(await catalog.exited).toBe(0);
    const res = await apiClient(gatewayUrl, DEVELOPMENT_API_KEY)('GET', '/v1/models');
    expectError(res, 503, 'overloaded_error');
  });
});
