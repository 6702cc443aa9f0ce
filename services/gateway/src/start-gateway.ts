import { join } from 'node:path';
import { keyValueBucketName } from '@shared/bus/key-value-buckets';
import { startServiceHost, type StartOptions } from '@shared/service-host/service-host';
import { httpRequests } from '@shared/telemetry/http-requests';
import { ApiKeyStore } from './auth/api-key-store';
import { createAuthenticator } from './auth/authenticate';
import type { GatewayConfig } from './config';
import { startHttpServer } from './http/http-server';
import { IdempotentRequests } from './idempotency/idempotent-requests';
import { RateLimits } from './limits/rate-limits';
import { SharedBuckets } from './limits/shared-buckets';
import { TRANSFER_TIMEOUT_FACTOR } from './modules/files';
import { SessionLogFollower } from '@shared/bus/session-log-follower';
import { sessionAppendFeed, sessionPreviewFeed } from './modules/session-events/session-feeds';
import { createGatewayService } from './service';

/**
 * How far past the largest body limit the gateway still reads (and discards) a body it refused,
 * so a client that sends everything before reading gets the 413 envelope instead of a reset.
 * Beyond it the connection is closed.
 */
const DISCARD_BODY_FACTOR = 4;

export const GATEWAY_MIGRATIONS = join(import.meta.dir, '..', 'migrations');

export async function startGateway(config: GatewayConfig, options: StartOptions = {}) {
  const host = await startServiceHost('gateway', config, { database: { migrationsFolder: GATEWAY_MIGRATIONS }, ...options });
  const keys = new ApiKeyStore(host.database.db, host.clock, config.KEY_CACHE_TTL_MS);
  const sessionLog = new SessionLogFollower(host.nc, config.BUS_PREFIX, host.logger);
  const sessionPreviews = sessionPreviewFeed(host.nc, config.BUS_PREFIX);
  const sessionAppends = sessionAppendFeed(host.nc, config.BUS_PREFIX);
  const rateLimits = new RateLimits(
    await SharedBuckets.open(host.nc, keyValueBucketName(config.BUS_PREFIX, 'rateLimits')),
    host.clock,
    host.logger,
    {
      keyRequestsPerMinute: config.RATE_LIMIT_KEY_REQUESTS_PER_MINUTE,
      workspaceRequestsPerMinute: config.RATE_LIMIT_WORKSPACE_REQUESTS_PER_MINUTE,
      failedLookupsPerMinute: config.RATE_LIMIT_FAILED_LOOKUPS_PER_MINUTE,
      syncMs: config.RATE_LIMIT_SYNC_MS,
    },
  );
  rateLimits.start();
  const idempotency = new IdempotentRequests(host.database.db, host.clock, {
    // The longest a POST runs once it holds its key: one bus call (an upload's is longer), and
    // the time to record its answer.
    claimLeaseMs: config.BUS_TIMEOUT_MS * TRANSFER_TIMEOUT_FACTOR + 5000,
    logger: host.logger,
  });
  idempotency.start();
  const app = createGatewayService({
    config,
    bus: host.client,
    authenticator: createAuthenticator(keys, {
      allowDevKey: config.allowDevKey,
      sessionsTokenKey: config.sessionsTokenKey,
      clock: host.clock,
      chargeFailedLookup: (address) => rateLimits.chargeFailedLookup(address),
    }),
    logger: host.logger,
    ready: host.ready,
    sessionLog,
    sessionPreviews,
    sessionAppends,
    rateLimits,
    idempotency,
  });
  // Every answer passes the idempotency keys on its way out: one to a request holding a key is
  // recorded (or the key released) before it is sent.
  const http = await startHttpServer(async (request) => idempotency.settle(request, await app.handle(request)), {
    port: config.PORT,
    hostname: config.HOST,
    maxRequestBodySize: Math.max(config.MAX_BODY_BYTES, config.FILE_MAX_BYTES) * DISCARD_BODY_FACTOR,
    maxHeaderBytes: config.MAX_HEADER_BYTES,
    maxHeaderCount: config.MAX_HEADER_COUNT,
    // A connection quiet this long is closed, even mid-request, without an answer: keep it above
    // the gateway's own deadlines (the 408 for a stalled body, the longest bus call).
    idleTimeoutSeconds: Math.min(
      255,
      Math.ceil(Math.max(config.BODY_READ_TIMEOUT_MS, config.BUS_TIMEOUT_MS * TRANSFER_TIMEOUT_FACTOR) / 1000) + 5,
    ),
    logger: host.logger,
    requests: host.telemetry.seam(httpRequests),
  });
  host.onStop(() => http.drain());
  // After the drain: what the last requests took is charged to the shared buckets.
  host.onStop(() => rateLimits.stop());
  host.onStop(() => idempotency.stop());
  // After the drain (no new streams): open event streams end cleanly before the bus goes.
  host.onStop(async () => {
    sessionLog.stop();
    sessionPreviews.stop();
    sessionAppends.stop();
  });
  host.logger.info('gateway listening', { port: http.port });
  return {
    port: http.port,
    url: `http://127.0.0.1:${http.port}`,
    keys,
    rateLimits,
    idempotency,
    host,
    /** The routes this gateway serves, as its router registered them (the OpenAPI tests compare them with the document). */
    routes: app.routes.map(({ method, path }) => ({ method, path })),
    stop: () => host.stop(),
  };
}
export type RunningGateway = Awaited<ReturnType<typeof startGateway>>;
