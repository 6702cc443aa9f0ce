import { afterAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { dropDatabase } from '@shared/db/connect';
import { loadCatalogConfig } from '../../services/catalog/src/config';
import { DEVELOPMENT_API_KEY } from '../../services/gateway/src/auth/development-key';
import { loadGatewayConfig } from '../../services/gateway/src/config';
import { startGateway, type RunningGateway } from '../../services/gateway/src/start-gateway';
import { loadSchedulerConfig } from '../../services/scheduler/src/config';
import { loadDeploymentsConfig } from '../../services/deployments/src/config';
import { loadVaultsConfig } from '../../services/vaults/src/config';
import { DEVELOPMENT_CURSOR_KEY, DEVELOPMENT_MASTER_KEYS, DEVELOPMENT_SESSIONS_TOKEN_KEY } from '@shared/crypto/published-development-keys';
import { loadRuntimeConfig } from '../../services/runtime/src/config';
import { apiClient } from '../support/api';
import { expectError } from '../support/expect';
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
    const SESSIONS_TOKEN_KEY = Buffer.alloc(32, 2).toString('base64');
    expect(() => loadGatewayConfig({ NODE_ENV: 'production', ALLOW_DEV_KEY: 'true', CURSOR_KEY: cursor, SESSIONS_TOKEN_KEY })).toThrow(/ALLOW_DEV_KEY/);
    expect(() => loadGatewayConfig({ NODE_ENV: 'production', SESSIONS_TOKEN_KEY })).toThrow(/CURSOR_KEY/);
    expect(loadGatewayConfig({ NODE_ENV: 'production', CURSOR_KEY: cursor, SESSIONS_TOKEN_KEY }).allowDevKey).toBe(false);
    expect(loadGatewayConfig({}).allowDevKey).toBe(true);
  });

  test('production refuses every published development CURSOR_KEY and MASTER_KEYS value', () => {
    // Every value printed in the repository (compose file, README, built-in defaults), read from
    // the files themselves so a newly published key cannot be forgotten in the refusal list.
    const published = ['deploy/docker-compose.yml', 'README.md']
      .map((file) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'))
      .join('\n');
    const cursorKeys = [DEVELOPMENT_CURSOR_KEY, ...[...published.matchAll(/CURSOR_KEY[:=]\s*"?([A-Za-z0-9+/]{43}=)/g)].map((m) => m[1]!)];
    const masterKeys = [
      DEVELOPMENT_MASTER_KEYS,
      ...[...published.matchAll(/MASTER_KEYS[:=]\s*"?([A-Za-z0-9_-]{1,32}:[A-Za-z0-9+/]{43}=)/g)].map((m) => m[1]!),
    ];
    expect(cursorKeys.length).toBeGreaterThanOrEqual(2);
    expect(masterKeys.length).toBeGreaterThanOrEqual(2);
    const real = Buffer.alloc(32, 1).toString('base64');

    for (const key of cursorKeys) {
      expect(() =>
        loadGatewayConfig({ NODE_ENV: 'production', CURSOR_KEY: key, SESSIONS_TOKEN_KEY: Buffer.alloc(32, 2).toString('base64') }),
      ).toThrow(/CURSOR_KEY.*published/);
      expect(loadGatewayConfig({ CURSOR_KEY: key }).cursorKey.length).toBe(32); // fine outside production
    }
    for (const ring of masterKeys) {
      const [, material] = ring.split(':');
      // The key bytes are what is public: another kid, or the key listed beside a real one, is refused too.
      for (const MASTER_KEYS of [ring, `other:${material}`, `real:${real},${ring}`]) {
        for (const load of [loadVaultsConfig, loadDeploymentsConfig]) {
          expect(() => load({ NODE_ENV: 'production', MASTER_KEYS })).toThrow(/MASTER_KEYS.*published/);
          expect(load({ MASTER_KEYS }).masterKeys.activeKeyId).toBeTruthy();
        }
      }
    }
    // A real key still starts, and the error never echoes the key.
    expect(loadVaultsConfig({ NODE_ENV: 'production', MASTER_KEYS: `k1:${real}` }).masterKeys.activeKeyId).toBe('k1');
    expect(loadGatewayConfig({ NODE_ENV: 'production', CURSOR_KEY: real, SESSIONS_TOKEN_KEY: Buffer.alloc(32, 2).toString('base64') }).cursorKey.length).toBe(32);
    try {
      loadGatewayConfig({ NODE_ENV: 'production', CURSOR_KEY: cursorKeys[1] });
    } catch (error) {
      expect(String(error)).not.toContain(cursorKeys[1]!);
    }
  });

  test('production refuses a missing or published SESSIONS_TOKEN_KEY, on the gateway and the runtime alike', () => {
    const CURSOR_KEY = Buffer.alloc(32, 1).toString('base64');
    expect(() => loadGatewayConfig({ NODE_ENV: 'production', CURSOR_KEY })).toThrow(/SESSIONS_TOKEN_KEY is required/);
    expect(() => loadRuntimeConfig({ NODE_ENV: 'production' })).toThrow(/SESSIONS_TOKEN_KEY is required/);
    for (const load of [(key: string) => loadGatewayConfig({ NODE_ENV: 'production', CURSOR_KEY, SESSIONS_TOKEN_KEY: key }), (key: string) => loadRuntimeConfig({ NODE_ENV: 'production', SESSIONS_TOKEN_KEY: key })]) {
      expect(() => load(DEVELOPMENT_SESSIONS_TOKEN_KEY)).toThrow(/SESSIONS_TOKEN_KEY.*published/);
      expect(() => load(Buffer.alloc(16, 3).toString('base64'))).toThrow(/SESSIONS_TOKEN_KEY must be base64 of 32 bytes/);
      expect(() => load(Buffer.alloc(32, 3).toString('base64'))).not.toThrow();
    }
  });

  test('in production mode the development key is refused with 401', async () => {
    const infra = await infrastructure();
    const gateway = await startGateway(
      loadGatewayConfig({
        NODE_ENV: 'production',
        CURSOR_KEY: Buffer.alloc(32, 1).toString('base64'),
        SESSIONS_TOKEN_KEY: Buffer.alloc(32, 2).toString('base64'),
        MYSQL_URL: infra.mysqlUrl,
        NATS_URL: infra.natsUrl,
        // Production refuses an anonymous NATS connection; the test NATS ignores credentials.
        NATS_USER: 'gateway',
        NATS_PASSWORD: 'pTestOnlyNotSecret0',
        BUS_PREFIX: 'tprodmode',
        DATABASE_NAME: 't_prodmode_gateway',
        PORT: '0',
      }),
    );
    started.push(gateway);
    const res = await apiClient(gateway.url, DEVELOPMENT_API_KEY)('GET', '/v1/models');
    expectError(res, 401, 'authentication_error');
  });
});
