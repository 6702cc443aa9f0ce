import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { Server } from 'bun';
import { BusClient } from '../bus/bus-client';
import { BusServer } from '../bus/bus-server';
import { OutboxRelay } from '../bus/outbox-relay';
import { PayloadCodec } from '../bus/payload-codec';
import { natsConnectionOptions } from '../bus/nats-connection';
import { ensureStreams, streamsOf } from '../bus/streams';
import { DEFAULT_TENANT_MAX_QUEUE, defaultTenantConcurrency, TenantBulkhead } from '../bus/tenant-bulkhead';
import type { BusIdentity } from '../bus/subject';
import { connectDatabase, type DatabaseHandle } from '../db/connect';
import { migrateDatabase } from '../db/migrate';
import type { OutboxTables } from '../db/outbox-table';
import { startHealthServer } from '../http/health-server';
import { createLogger, type LogLevel, type Logger } from '../log/logger';
import { systemClock, type Clock } from '../time/clock';

export interface RuntimeConfig {
  NODE_ENV: 'development' | 'test' | 'production';
  LOG_LEVEL: LogLevel;
  NATS_URL: string;
  NATS_USER?: string;
  NATS_PASSWORD?: string;
  NATS_TLS_CA_FILE?: string;
  NATS_TLS_CERT_FILE?: string;
  NATS_TLS_KEY_FILE?: string;
  BUS_PREFIX: string;
  BUS_TIMEOUT_MS: number;
  SHUTDOWN_GRACE_MS: number;
  MYSQL_URL: string;
  MYSQL_PASSWORD?: string;
  MYSQL_POOL_SIZE: number;
  DATABASE_NAME: string;
  HEALTH_PORT?: number;
  /** See OutboxConfig (shared/config/load-config.ts); absent means the relay's defaults. */
  OUTBOX_MAX_ATTEMPTS?: number;
  OUTBOX_RETRY_BASE_MS?: number;
  HEALTH_HOST?: string;
  /** See TenantBulkheadConfig; absent means half the pool and the default queue. */
  TENANT_MAX_CONCURRENCY?: number;
  TENANT_MAX_QUEUE?: number;
}

export interface RuntimeOptions {
  migrationsFolder: string;
  /** The service's outbox and dead-letter tables; given, the runtime relays the outbox. */
  outbox?: OutboxTables;
  clock?: Clock;
  metrics?: () => string;
  logger?: Logger;
}

/** What every service process has: bus both ways, its own database, health, and an orderly stop. */
export interface ServiceRuntime {
  readonly name: string;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly nc: NatsConnection;
  readonly database: DatabaseHandle;
  readonly client: BusClient;
  readonly server: BusServer;
  /** The per-tenant bulkhead the server admits calls through (and group commits take lanes from). */
  readonly bulkhead: TenantBulkhead;
  readonly relay: OutboxRelay | undefined;
  readonly codec: PayloadCodec;
  healthPort(): number | undefined;
  ready(): Promise<void>;
  /** Runs before the bus drains, e.g. to stop a worker loop. */
  onStop(hook: () => Promise<void>): void;
  stop(): Promise<void>;
}

export function bucketName(prefix: string): string {
  return `${prefix ? prefix.replace(/[^A-Za-z0-9_-]/g, '_') + '_' : ''}BUS_PAYLOADS`;
}

export async function startServiceRuntime(
  name: BusIdentity,
  config: RuntimeConfig,
  options: RuntimeOptions,
): Promise<ServiceRuntime> {
  const logger = options.logger ?? createLogger(config.LOG_LEVEL, { service: name });
  const clock = options.clock ?? systemClock;
  const nc = await connect(natsConnectionOptions(name, config));
  const database = await connectDatabase(config, config.DATABASE_NAME);
  await migrateDatabase(database, options.migrationsFolder);
  // Only the streams this service publishes or consumes: its NATS identity may manage no others.
  await ensureStreams(nc, config.BUS_PREFIX, streamsOf(name));

  const codec = new PayloadCodec(nc, bucketName(config.BUS_PREFIX));
  const client = new BusClient(nc, codec, {
    prefix: config.BUS_PREFIX,
    timeoutMs: config.BUS_TIMEOUT_MS,
    logger,
    checkReplies: config.NODE_ENV === 'test',
  });
  const bulkhead = new TenantBulkhead({
    maxConcurrency: config.TENANT_MAX_CONCURRENCY ?? defaultTenantConcurrency(config.MYSQL_POOL_SIZE),
    maxQueue: config.TENANT_MAX_QUEUE ?? DEFAULT_TENANT_MAX_QUEUE,
    // Half the caller's patience at most in the queue, the other half left for the work itself:
    // a request refused with 429 is retried by the client, one that times out is a 504.
    maxWaitMs: Math.floor(config.BUS_TIMEOUT_MS / 2),
  });
  const server = new BusServer(nc, codec, { prefix: config.BUS_PREFIX, logger, bulkhead });
  const relay = options.outbox
    ? new OutboxRelay(nc, database.db, options.outbox, {
        prefix: config.BUS_PREFIX,
        logger,
        clock,
        maxAttempts: config.OUTBOX_MAX_ATTEMPTS,
        retryBaseMs: config.OUTBOX_RETRY_BASE_MS,
      })
    : undefined;
  relay?.start();

  let stopping = false;
  const ready = async () => {
    if (stopping) throw new Error('shutting down');
    if (nc.isClosed()) throw new Error('bus connection closed');
    await nc.flush();
    await database.ping();
  };
  // The service's own metrics, then the relay's (dead-letter rows among them), then the bulkhead's.
  const metricSources = [options.metrics, relay && (() => relay.renderMetrics()), () => server.renderMetrics()].filter(
    (m) => m !== undefined,
  );
  const renderMetrics = metricSources.length > 0 ? () => metricSources.map((m) => m()).join('') : undefined;
  const health =
    config.HEALTH_PORT === undefined
      ? undefined
      : startHealthServer(
          { port: config.HEALTH_PORT, hostname: config.HEALTH_HOST ?? '0.0.0.0' },
          { ready, metrics: renderMetrics },
          logger,
        );
  const hooks: Array<() => Promise<void>> = [];

  logger.info('service started', { health_port: health?.port });
  return {
    name,
    logger,
    clock,
    nc,
    database,
    client,
    server,
    bulkhead,
    relay,
    codec,
    healthPort: () => (health as Server<unknown> | undefined)?.port,
    ready,
    onStop: (hook) => void hooks.push(hook),
    stop: async () => {
      if (stopping) return;
      stopping = true;
      await server.stop();
      for (const hook of hooks) await hook().catch((err) => logger.error('stop hook failed', { error: err }));
      await relay?.stop();
      await nc.drain().catch(() => undefined);
      await database.close().catch(() => undefined);
      health?.stop(true);
      logger.info('service stopped');
    },
  };
}
