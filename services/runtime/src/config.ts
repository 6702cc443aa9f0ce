import { hostname } from 'node:os';
import { Type } from '@sinclair/typebox';
import { loadConfig, ServiceConfig } from '@shared/config/load-config';
import { loadSessionsTokenKey } from '@shared/crypto/sessions-token';

export const RuntimeConfigSchema = {
  ...ServiceConfig({ databaseName: 'agents_runtime', healthPort: 8085, outbox: false }),
  /** Any endpoint that speaks the Messages API (`POST /v1/messages`). */
  MODEL_API_BASE_URL: Type.String({ pattern: '^https?://', default: 'https://api.anthropic.com' }),
  /** Its key (a Secret). Unset: every session that needs the model stops with a session.error at once. */
  MODEL_API_KEY: Type.Optional(Type.String({ minLength: 1 })),
  /** `max_tokens` of each model request. */
  MODEL_MAX_TOKENS: Type.Integer({ minimum: 1, maximum: 128000, default: 8192 }),
  /** Longest a model request may take. */
  MODEL_TIMEOUT_MS: Type.Integer({ minimum: 1000, maximum: 3600000, default: 600000 }),
  /** Retries of a model request that failed retryably (overloaded, rate limited, 5xx, network) before the session stops. */
  MODEL_MAX_RETRIES: Type.Integer({ minimum: 0, maximum: 20, default: 3 }),
  /** Wait before the first retry; doubles with each further one. */
  MODEL_RETRY_BASE_MS: Type.Integer({ minimum: 0, maximum: 600000, default: 2000 }),
  /**
   * A turn whose estimated input passes this fraction of the model's context window
   * (`max_input_tokens`) compacts the conversation first: the model summarizes it and the turns
   * after send the summary instead (domain/context-compaction.ts). Leaves room for the summary's
   * own request and for what the estimate misses.
   */
  RUNTIME_COMPACTION_THRESHOLD: Type.Number({ exclusiveMinimum: 0, maximum: 0.95, default: 0.8 }),
  /** Sessions one replica drives at once (each mostly waits on the model). */
  RUNTIME_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 10_000, default: 512 }),
  /** How long a replica's hold on a session outlives its last renewal (a crashed replica's sessions move after this). */
  RUNTIME_LEASE_MS: Type.Integer({ minimum: 1000, maximum: 600000, default: 30000 }),
  /** How long a delivered session notice may go unacknowledged without a sign of life before NATS redelivers it. */
  RUNTIME_ACK_WAIT_MS: Type.Integer({ minimum: 1000, maximum: 600000, default: 30000 }),
  /** Names this replica in leases and logs; unique per replica (the pod name in Kubernetes). */
  RUNTIME_WORKER_ID: Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,80}$', default: `${hostname().slice(0, 60)}-${process.pid}` }),
  /** Durable JetStream consumer of session notices, shared by every replica of one install. */
  RUNTIME_CONSUMER_NAME: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', default: 'runtime-sessions' }),
  /**
   * Lease a work item's heartbeat extends; a worker silent for longer loses the item. The SDK's
   * worker heartbeats every max(1 s, min(this / 2, 30 s)) and hears a stop (an interrupt) only
   * then: 8 s makes that at most 4 s, so an interrupted tool is killed within 5 s.
   */
  WORK_LEASE_TTL_SECONDS: Type.Integer({ minimum: 2, maximum: 3600, default: 8 }),
  /**
   * MCP servers the runtime may reach although they resolve to a private, loopback or link-local
   * address: a comma list of `host` or `host:port` (an MCP server inside the operator's network,
   * a test's on loopback). Such a host may also be plain `http://`. Empty: none.
   */
  MCP_ALLOW_PRIVATE_HOSTS: Type.String({ default: '' }),
  /** Longest the runtime waits to connect to an MCP server (and list its tools). */
  MCP_CONNECT_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 120000, default: 10000 }),
  /** Longest one MCP tool call may take. */
  MCP_CALL_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 3600000, default: 120000 }),
  /** base64 of 32 bytes signing sessions tokens (the gateway checks them with the same key). Required in production. */
  SESSIONS_TOKEN_KEY: Type.Optional(Type.String({ minLength: 1 })),
  /** How long a work item's sessions token is valid. */
  SESSIONS_TOKEN_TTL_SECONDS: Type.Integer({ minimum: 60, maximum: 86400, default: 3600 }),
};

export function loadRuntimeConfig(env: Record<string, string | undefined> = process.env) {
  const raw = loadConfig(RuntimeConfigSchema, env);
  return { ...raw, sessionsTokenKey: loadSessionsTokenKey(raw.SESSIONS_TOKEN_KEY, raw.NODE_ENV === 'production') };
}
export type RuntimeConfig = ReturnType<typeof loadRuntimeConfig>;
