import { OptionalKind, Type, type Static, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Settings every service reads. Helm values map one-to-one onto these variables. */
export const CommonConfig = {
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('test'), Type.Literal('production')], {
    default: 'development',
  }),
  LOG_LEVEL: Type.Union([Type.Literal('debug'), Type.Literal('info'), Type.Literal('warn'), Type.Literal('error')], {
    default: 'info',
  }),
  /** NATS server(s), comma separated. */
  NATS_URL: Type.String({ minLength: 1, default: 'nats://127.0.0.1:4222' }),
  /** Namespaces every subject and stream, so several installs (or test runs) can share one NATS. */
  BUS_PREFIX: Type.String({ pattern: '^[a-z0-9_-]*$', default: '' }),
  /** How long a caller waits for a reply before answering 504. */
  BUS_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 120000, default: 5000 }),
  /** How long SIGTERM waits for in-flight work before the process exits anyway. */
  SHUTDOWN_GRACE_MS: Type.Integer({ minimum: 0, maximum: 600000, default: 10000 }),
};

export const DatabaseConfig = {
  /** Server address; the database name comes from DATABASE_NAME. */
  MYSQL_URL: Type.String({ minLength: 1, default: 'mysql://root@127.0.0.1:3306' }),
  /** Overrides the URL's password, so the URL can live in a ConfigMap and this in a Secret. */
  MYSQL_PASSWORD: Type.Optional(Type.String()),
  MYSQL_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
  /**
   * Longest a query waits for a pool connection (including opening one); then it fails as
   * 503 overloaded_error. Below BUS_TIMEOUT_MS so the caller hears 503, not a 504 timeout.
   */
  MYSQL_ACQUIRE_TIMEOUT_MS: Type.Integer({ minimum: 10, maximum: 120000, default: 3000 }),
  /** Most queries waiting for a pool connection at once; more are refused at once with 503. */
  MYSQL_QUEUE_LIMIT: Type.Integer({ minimum: 1, maximum: 100000, default: 1000 }),
};

export const HealthConfig = (defaultPort: number) => ({
  /** Port of /healthz, /readyz (and /metrics where the service has them). */
  HEALTH_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: defaultPort }),
  /** Address the health port listens on; `0.0.0.0` (every interface) suits Kubernetes probes. */
  HEALTH_HOST: Type.String({ minLength: 1, maxLength: 253, default: '0.0.0.0' }),
});

/** Settings of a service that publishes events through its outbox (shared/bus/outbox-relay.ts). */
export const OutboxConfig = {
  /**
   * Failed publishes of one event before it is parked in the service's dead-letter table
   * (`bun run outbox -- list` shows it, `redrive` sends it again). Failures while JetStream does
   * not answer at all are not counted.
   */
  OUTBOX_MAX_ATTEMPTS: Type.Integer({ minimum: 1, maximum: 100, default: 8 }),
  /** Wait before an event's second publish attempt; it doubles with each further one (at most 5 minutes). */
  OUTBOX_RETRY_BASE_MS: Type.Integer({ minimum: 10, maximum: 300000, default: 1000 }),
};

function coerce(schema: TSchema, raw: string): unknown {
  const kind = (schema as { type?: string }).type;
  if (kind === 'integer' || kind === 'number') return raw.trim() === '' ? raw : Number(raw);
  if (kind === 'boolean') {
    if (/^(true|1|yes)$/i.test(raw)) return true;
    if (/^(false|0|no)$/i.test(raw)) return false;
    return raw;
  }
  return raw;
}

/**
 * Parses environment variables against a service's config schema. The first bad variable stops
 * start-up with a message naming it; nothing half-configured ever runs.
 */
export function loadConfig<P extends TProperties>(
  properties: P,
  env: Record<string, string | undefined> = process.env,
): Static<TObject<P>> {
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(properties)) {
    const raw = env[name];
    let value: unknown = raw === undefined || raw === '' ? undefined : coerce(schema, raw);
    if (value === undefined && 'default' in schema) value = structuredClone(schema.default);
    if (value === undefined) {
      if ((schema as { [OptionalKind]?: string })[OptionalKind] === 'Optional') continue;
      throw new ConfigError(`Invalid configuration: ${name} is required`);
    }
    if (!Value.Check(schema, value)) {
      const first = [...Value.Errors(schema, value)][0];
      throw new ConfigError(`Invalid configuration: ${name}: ${first?.message ?? 'invalid value'}`);
    }
    out[name] = value;
  }
  return out as Static<TObject<P>>;
}
