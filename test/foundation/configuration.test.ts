import { afterAll, describe, expect, test } from 'bun:test';
import { dropDatabase } from '../../shared/db/connect';
import { loadCatalogConfig } from '../../services/catalog/src/config';
import { DEVELOPMENT_API_KEY } from '../../services/gateway/src/auth/development-key';
import { loadGatewayConfig } from '../../services/gateway/src/config';
import { startGateway, type RunningGateway } from '../../services/gateway/src/start-gateway';
import { loadSchedulerConfig } from '../../services/scheduler/src/config';
import { apiClient } from '../support/api';
import { infrastructure } from '../support/infrastructure';

const started: RunningGateway[] = [];
afterAll(async () => {
  for (const g of started) await g.stop();
  const infra = await infrastructure();
  await dropDatabase({ MYSQL_URL: infra.mysqlUrl, MYSQL_POOL_SIZE: 1 }, 't_prodmode_gateway');
});

describe('configuration', () => {
  test('a bad value stops start-up with a message naming the variable', () => {
    expect(() => loadGatewayConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadCatalogConfig({ BUS_TIMEOUT_MS: '5' })).toThrow(/BUS_TIMEOUT_MS/);
    expect(() => loadSchedulerConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
    expect(() => loadGatewayConfig({ CURSOR_KEY: 'c2hvcnQ=' })).toThrow(/CURSOR_KEY/);
  });

  test('production refuses to start with the development key allowed, or without a cursor key', () => {
    const cursor = Buffer.alloc(32, 1).toString('base64');
    expect(() => loadGatewayConfig({ NODE_ENV: 'production', ALLOW_DEV_KEY: 'true', CURSOR_KEY: cursor })).toThrow(/ALLOW_DEV_KEY/);
    expect(() => loadGatewayConfig({ NODE_ENV: 'production' })).toThrow(/CURSOR_KEY/);
    expect(loadGatewayConfig({ NODE_ENV: 'production', CURSOR_KEY: cursor }).allowDevKey).toBe(false);
    expect(loadGatewayConfig({}).allowDevKey).toBe(true);
  });

  test('in production mode the development key is refused with 401', async () => {
    const infra = await infrastructure();
    const gateway = await startGateway(
      loadGatewayConfig({
        NODE_ENV: 'production',
        CURSOR_KEY: Buffer.alloc(32, 1).toString('base64'),
        MYSQL_URL: infra.mysqlUrl,
        NATS_URL: infra.natsUrl,
        BUS_PREFIX: 'tprodmode',
        DATABASE_NAME: 't_prodmode_gateway',
        PORT: '0',
      }),
    );
    started.push(gateway);
    const res = await apiClient(gateway.url, DEVELOPMENT_API_KEY)('GET', '/v1/models');
    expect(res.status).toBe(401);
    expect(res.body.error.type).toBe('authentication_error');
  });
});
