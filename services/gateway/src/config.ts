import { Type } from '@sinclair/typebox';
import { ConfigError, HealthConfig, loadConfig, ServiceConfig } from '@shared/config/load-config';
import { DEVELOPMENT_CURSOR_KEY, isPublishedKey } from '@shared/crypto/published-development-keys';
import { loadSessionsTokenKey } from '@shared/crypto/sessions-token';

export const GatewayConfigSchema = {
  ...ServiceConfig({ databaseName: 'agents_gateway' }),
  /**
   * The gateway's own health port, like every service's: /healthz, /readyz and /metrics. Metrics
   * stay off the public port, which the internet may reach (route and status counts, pool use and
   * process figures are for operators only).
   */
  ...HealthConfig(8087),
  /** Public HTTP port; /healthz and /readyz are served here too (for load balancers that probe it). */
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  /** Address the public port listens on; `0.0.0.0` is every interface. */
  HOST: Type.String({ minLength: 1, maxLength: 253, default: '0.0.0.0' }),
  /** First part of the versioning header names (`anthropic-version`, `anthropic-beta`). */
  API_HEADER_PREFIX: Type.String({ pattern: '^[a-z][a-z0-9-]*$', default: 'anthropic' }),
  /** The documented development key; refused in production, where enabling it stops start-up. */
  ALLOW_DEV_KEY: Type.Optional(Type.Boolean()),
  /** base64 of 32 bytes sealing page cursors. Required in production. */
  CURSOR_KEY: Type.Optional(Type.String({ minLength: 1 })),
  /** base64 of 32 bytes the runtime signs work items' sessions tokens with (the same value on both). Required in production. */
  SESSIONS_TOKEN_KEY: Type.Optional(Type.String({ minLength: 1 })),
  /** How long a looked-up API key is trusted before the database is asked again (revocation delay). */
  KEY_CACHE_TTL_MS: Type.Integer({ minimum: 0, maximum: 600000, default: 30000 }),
  /**
   * Open session event streams per workspace on one gateway replica (named in the 429 that
   * refuses one more): an idle stream costs a socket and a keep-alive, so hundreds of watchers
   * per workspace are served; the cap keeps one tenant from taking a replica's sockets.
   */
  SESSION_STREAMS_PER_WORKSPACE: Type.Integer({ minimum: 1, maximum: 100_000, default: 2000 }),
  /**
   * Requests one API key may make per minute, over every gateway replica: a token bucket holding
   * this many, refilled continuously (limits/rate-limits.ts). 0 turns the limit off. The default
   * stops a runaway client without ever limiting what one stack serves (about 5,000 creates/s).
   */
  RATE_LIMIT_KEY_REQUESTS_PER_MINUTE: Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 600_000 }),
  /** Requests one workspace, all its keys together, may make per minute; 0 turns the limit off. */
  RATE_LIMIT_WORKSPACE_REQUESTS_PER_MINUTE: Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 1_200_000 }),
  /**
   * API key lookups that found no key (unknown or revoked), per client address per minute; past
   * it the answer is 429 without a lookup. Only lookups that reach the database count. 0 turns it off.
   */
  RATE_LIMIT_FAILED_LOOKUPS_PER_MINUTE: Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 600 }),
  /**
   * How often each replica charges the shared rate limit buckets with what it admitted and reads
   * back what the others did; replicas may together overshoot a limit by what they admit in one
   * such interval (then repaid as debt). Shorter is more exact and costs more NATS round trips.
   */
  RATE_LIMIT_SYNC_MS: Type.Integer({ minimum: 10, maximum: 10_000, default: 100 }),
  /**
   * Proxies in front of the gateway that append to X-Forwarded-For (an ingress: 1). The client
   * address of the failed-lookup limit is the entry this many from the right; 0 ignores the
   * header (any client can send one) and counts the connection's peer.
   */
  TRUSTED_PROXY_HOPS: Type.Integer({ minimum: 0, maximum: 10, default: 0 }),
  /**
   * Largest total size of request headers; larger requests get 431 with the error envelope. The
   * gateway process runs with Bun's parser limit above this (see deploy/bin/services.ts), so
   * the gateway, not the parser, is the one that answers.
   */
  MAX_HEADER_BYTES: Type.Integer({ minimum: 1024, maximum: 60 * 1024, default: 16 * 1024 }),
  /**
   * Most header fields a request may carry; more get 431 with the error envelope. Bun's parser
   * refuses 199 lines or more itself, with a bare 431, so this stays below that.
   */
  MAX_HEADER_COUNT: Type.Integer({ minimum: 16, maximum: 190, default: 100 }),
  /**
   * Longest wait for the next piece of a request body; a client that stops sending (or sends
   * less than its Content-Length) gets 408 with the envelope and the connection is closed.
   */
  BODY_READ_TIMEOUT_MS: Type.Integer({ minimum: 50, maximum: 120000, default: 10000 }),
  /**
   * Longest time reading a whole JSON body may take, however steadily it trickles in; past it the
   * answer is 408 with the envelope and the connection is closed. An upload to POST /v1/files is
   * allowed the time its larger limit takes at the same rate (this × its limit / MAX_BODY_BYTES).
   */
  BODY_READ_DEADLINE_MS: Type.Integer({ minimum: 100, maximum: 600000, default: 60000 }),
  /** Largest JSON body accepted; larger bodies get 413. */
  MAX_BODY_BYTES: Type.Integer({ minimum: 1024, default: 8 * 1024 * 1024 }),
  /** Largest file upload accepted by POST /v1/files. */
  FILE_MAX_BYTES: Type.Integer({ minimum: 1, default: 32 * 1024 * 1024 }),
};

export function loadGatewayConfig(env: Record<string, string | undefined> = process.env) {
  const raw = loadConfig(GatewayConfigSchema, env);
  const production = raw.NODE_ENV === 'production';
  if (production && raw.ALLOW_DEV_KEY === true) {
    throw new ConfigError('Invalid configuration: ALLOW_DEV_KEY must not be true when NODE_ENV=production');
  }
  if (production && !raw.CURSOR_KEY) {
    throw new ConfigError('Invalid configuration: CURSOR_KEY is required when NODE_ENV=production');
  }
  const cursorKey = Buffer.from(raw.CURSOR_KEY ?? DEVELOPMENT_CURSOR_KEY, 'base64');
  if (cursorKey.length !== 32) throw new ConfigError('Invalid configuration: CURSOR_KEY must be base64 of 32 bytes');
  if (production && isPublishedKey(cursorKey)) {
    throw new ConfigError(
      'Invalid configuration: CURSOR_KEY is a published development key; generate one with `openssl rand -base64 32`',
    );
  }
  const sessionsTokenKey = loadSessionsTokenKey(raw.SESSIONS_TOKEN_KEY, production);
  return { ...raw, allowDevKey: raw.ALLOW_DEV_KEY ?? !production, cursorKey, sessionsTokenKey };
}
export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;
