import { BusServer } from '../bus/bus-server';
import { OutboxRelay } from '../bus/outbox-relay';
import { DEFAULT_TENANT_MAX_QUEUE, defaultTenantConcurrency, TenantBulkhead } from '../bus/tenant-bulkhead';
import type { BusIdentity } from '../bus/subject';
import { connectDatabase, type DatabaseHandle } from '../db/connect';
import { migrateDatabase } from '../db/migrate';
import type { OutboxDeadLetterTable, OutboxTable } from '../db/outbox-table';
import { dbStatements } from '../telemetry/db-statements';
import { Telemetry } from '../telemetry/telemetry';
import type { Logger } from '../log/logger';
import type { Clock } from '../time/clock';
import { openBusPart, type BusConfig, type BusHost, type BusPartOptions } from './bus-host';

export { bucketName } from './bus-host';
export type { BusConfig, BusHost } from './bus-host';

export interface ServiceHostConfig extends BusConfig {
  MYSQL_URL: string;
  MYSQL_PASSWORD?: string;
  MYSQL_POOL_SIZE: number;
  DATABASE_NAME: string;
  /** See OutboxConfig (shared/config/load-config.ts); absent means the relay's defaults. */
  OUTBOX_MAX_ATTEMPTS?: number;
  OUTBOX_RETRY_BASE_MS?: number;
  /** See TenantBulkheadConfig; absent means half the pool and the default queue. */
  TENANT_MAX_CONCURRENCY?: number;
  TENANT_MAX_QUEUE?: number;
}

/** A service's own database, as startServiceHost opens it. */
export interface DatabaseOptions {
  /** The service's `migrations/` folder, applied before anything is served. */
  migrationsFolder: string;
  /** Its db/schema.ts, where its outbox and dead-letter tables are; given, the host relays the outbox. */
  outbox?: { outbox: OutboxTable; outboxDeadLetters: OutboxDeadLetterTable };
}

export interface ServiceHostOptions {
  /** Absent for a process that keeps no database (the sandbox worker): it gets the bus part alone. */
  database?: DatabaseOptions;
  /** A test's clock to drive; the system clock otherwise. */
  clock?: Clock;
  /** A test's logger to read; one made from LOG_LEVEL otherwise. */
  logger?: Logger;
}

/** What a test (or main) may hand a service's start function: a clock to drive, a logger to read. */
export type StartOptions = Pick<ServiceHostOptions, 'clock' | 'logger'>;

/** What every service process with a database has: the bus host, plus its database, a bus server and its outbox relay. */
export interface ServiceHost extends BusHost {
  readonly database: DatabaseHandle;
  readonly server: BusServer;
  /** The per-tenant bulkhead the server admits calls through (and group commits take lanes from). */
  readonly bulkhead: TenantBulkhead;
  readonly relay: OutboxRelay | undefined;
}

/**
 * The one way a process starts, whatever it is. With `database`: the database (migrated before
 * anything is served), then the bus part with the database in its readiness and its close, the
 * bus server behind the per-tenant bulkhead, and the outbox relay when the service has an outbox.
 * Without: the bus part alone (connection, client, health, orderly stop).
 */
export function startServiceHost(
  name: BusIdentity,
  config: ServiceHostConfig,
  options: ServiceHostOptions & { database: DatabaseOptions },
): Promise<ServiceHost>;
export function startServiceHost(name: BusIdentity, config: BusConfig, options?: StartOptions): Promise<BusHost>;
export async function startServiceHost(
  name: BusIdentity,
  config: BusConfig | ServiceHostConfig,
  options: ServiceHostOptions = {},
): Promise<BusHost | ServiceHost> {
  const telemetry = Telemetry.start(name, config);
  if (!options.database) return openBusPart(name, config, { clock: options.clock, logger: options.logger, telemetry });
  return withDatabase(name, config as ServiceHostConfig, options.database, { clock: options.clock, logger: options.logger, telemetry });
}

async function withDatabase(
  name: BusIdentity,
  config: ServiceHostConfig,
  options: DatabaseOptions,
  busOptions: Omit<BusPartOptions, 'ready' | 'close'>,
): Promise<ServiceHost> {
  const { telemetry } = busOptions;
  const database = await connectDatabase(config, config.DATABASE_NAME);
  telemetry.seam(dbStatements).instrument(database.pool, database.name);
  let stopping = false;
  let bus: BusHost;
  try {
    await migrateDatabase(database, options.migrationsFolder);
    bus = await openBusPart(name, config, {
      ...busOptions,
      ready: async () => {
        if (stopping) throw new Error('shutting down');
        await database.ping();
      },
      close: () => database.close(),
    });
  } catch (err) {
    await database.close().catch(() => undefined);
    throw err;
  }

  const bulkhead = new TenantBulkhead({
    maxConcurrency: config.TENANT_MAX_CONCURRENCY ?? defaultTenantConcurrency(config.MYSQL_POOL_SIZE),
    maxQueue: config.TENANT_MAX_QUEUE ?? DEFAULT_TENANT_MAX_QUEUE,
    // Half the caller's patience at most in the queue, the other half left for the work itself:
    // a request refused with 429 is retried by the client, one that times out is a 504.
    maxWaitMs: Math.floor(config.BUS_TIMEOUT_MS / 2),
    registry: telemetry.registry,
  });
  const server = new BusServer(bus.nc, bus.codec, { prefix: config.BUS_PREFIX, logger: bus.logger, bulkhead, telemetry });
  const relay = options.outbox
    ? new OutboxRelay(bus.nc, database.db, { outbox: options.outbox.outbox, deadLetters: options.outbox.outboxDeadLetters }, {
        prefix: config.BUS_PREFIX,
        logger: bus.logger,
        clock: bus.clock,
        maxAttempts: config.OUTBOX_MAX_ATTEMPTS,
        retryBaseMs: config.OUTBOX_RETRY_BASE_MS,
        telemetry,
      })
    : undefined;
  relay?.start();

  return {
    ...bus,
    database,
    server,
    bulkhead,
    relay,
    stop: async () => {
      if (stopping) return;
      stopping = true;
      await server.stop();
      // Added last, so it runs after the handlers' own hooks: what they record until then is still relayed.
      if (relay) bus.onStop(() => relay.stop());
      await bus.stop();
    },
  };
}
