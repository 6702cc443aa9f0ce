import { join } from 'node:path';
import type { Logger } from '../../../shared/log/logger';
import { startServiceRuntime } from '../../../shared/runtime/service-runtime';
import type { Clock } from '../../../shared/time/clock';
import { createGatewayApp } from './app';
import { ApiKeyStore } from './auth/api-key-store';
import { createAuthenticator } from './auth/authenticate';
import type { GatewayConfig } from './config';
import { startHttpServer } from './http/http-server';

export const GATEWAY_MIGRATIONS = join(import.meta.dir, '..', 'migrations');

export async function startGateway(config: GatewayConfig, options: { clock?: Clock; logger?: Logger } = {}) {
  const runtime = await startServiceRuntime('gateway', config, {
    migrationsFolder: GATEWAY_MIGRATIONS,
    clock: options.clock,
    logger: options.logger,
  });
  const keys = new ApiKeyStore(runtime.database.db, runtime.clock, config.KEY_CACHE_TTL_MS);
  const app = createGatewayApp({
    config,
    bus: runtime.client,
    authenticator: createAuthenticator(keys, { allowDevKey: config.allowDevKey }),
    logger: runtime.logger,
    ready: runtime.ready,
  });
  const http = startHttpServer((request) => app.handle(request), {
    port: config.PORT,
    hostname: config.HOST,
    maxRequestBodySize: Math.max(config.MAX_BODY_BYTES, config.FILE_MAX_BYTES) + 1024 * 1024,
    maxHeaderBytes: config.MAX_HEADER_BYTES,
    logger: runtime.logger,
  });
  runtime.onStop(() => http.drain());
  runtime.logger.info('gateway listening', { port: http.port });
  return {
    port: http.port as number,
    url: `http://127.0.0.1:${http.port}`,
    keys,
    runtime,
    stop: () => runtime.stop(),
  };
}
export type RunningGateway = Awaited<ReturnType<typeof startGateway>>;
