import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { Server } from 'bun';
import { BusClient } from '../bus/bus-client';
import { natsConnectionOptions } from '../bus/nats-connection';
import { PAYLOAD_BUCKET_OWNER, PayloadCodec } from '../bus/payload-codec';
import { ensureStreams, streamsOf } from '../bus/streams';
import type { BusIdentity } from '../bus/subject';
import { startHealthServer } from '../http/health-server';
import { createLogger, type LogLevel, type Logger } from '../log/logger';
import type { Telemetry } from '../telemetry/telemetry';
import type { TracingConfig } from '../telemetry/tracing';
import { systemClock, type Clock } from '../time/clock';

/** The settings every process on the bus reads (CommonConfig, and HealthConfig where it has a health port). */
export interface BusConfig extends TracingConfig {
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
  HEALTH_PORT?: number;
  HEALTH_HOST?: string;
}

/** What startServiceHost hands the bus part; no service calls it itself. */
export interface BusPartOptions {
  clock?: Clock;
  logger?: Logger;
  /** Made by startServiceHost before the bus part, so the database's statements are measured too. */
  telemetry: Telemetry;
  /** What /readyz checks besides the bus (the service host: its database). */
  ready?: () => Promise<void>;
  /** Closed after the bus has drained: what the handlers used until then (the service host: its database). */
  close?: () => Promise<void>;
}

/** What every process on the bus has: its connection and client, health, and an orderly stop. */
export interface BusHost {
  readonly name: string;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly nc: NatsConnection;
  readonly client: BusClient;
  readonly codec: PayloadCodec;
  /** Its metrics (served on the health port's /metrics) and traces; services register their own series in its registry. */
  readonly telemetry: Telemetry;
  healthPort(): number | undefined;
  ready(): Promise<void>;
  /** Runs before the bus drains, in the order added, e.g. to stop a worker loop. */
  onStop(hook: () => Promise<void>): void;
  stop(): Promise<void>;
}

export function bucketName(prefix: string): string {
  return `${prefix ? prefix.replace(/[^A-Za-z0-9_-]/g, '_') + '_' : ''}BUS_PAYLOADS`;
}

/**
 * The bus part of every process, the one piece startServiceHost (service-host.ts) builds on: its
 * own NATS identity, the streams it publishes or consumes, a typed client, and the health port.
 * A process that keeps no database (the sandbox worker) gets this alone from startServiceHost.
 */
export async function openBusPart(name: BusIdentity, config: BusConfig, options: BusPartOptions): Promise<BusHost> {
  const logger = options.logger ?? createLogger(config.LOG_LEVEL, { service: name });
  const clock = options.clock ?? systemClock;
  const telemetry = options.telemetry;
  const nc = await connect(natsConnectionOptions(name, config));
  try {
    // Only the streams this process publishes or consumes: its NATS identity may manage no others.
    await ensureStreams(nc, config.BUS_PREFIX, streamsOf(name));
  } catch (err) {
    await nc.close().catch(() => undefined);
    throw err;
  }
  const ownsPayloads = name === PAYLOAD_BUCKET_OWNER;
  const codec = new PayloadCodec(nc, bucketName(config.BUS_PREFIX), { createsBucket: ownsPayloads });
  try {
    // The owner creates the payload bucket before it serves anything: no other identity may.
    if (ownsPayloads) await codec.ensureBucket();
  } catch (err) {
    await nc.close().catch(() => undefined);
    throw err;
  }
  const client = new BusClient(nc, codec, {
    prefix: config.BUS_PREFIX,
    timeoutMs: config.BUS_TIMEOUT_MS,
    logger,
    checkReplies: config.NODE_ENV === 'test',
    telemetry,
  });

  let stopping = false;
  const ready = async () => {
    if (stopping) throw new Error('shutting down');
    if (nc.isClosed()) throw new Error('bus connection closed');
    await nc.flush();
    await options.ready?.();
  };
  const health =
    config.HEALTH_PORT === undefined
      ? undefined
      : startHealthServer({ port: config.HEALTH_PORT, hostname: config.HEALTH_HOST ?? '0.0.0.0' }, { ready, metrics: () => telemetry.metrics() }, logger);
  const hooks: Array<() => Promise<void>> = [];

  logger.info('service started', { health_port: health?.port });
  return {
    name,
    logger,
    clock,
    nc,
    client,
    codec,
    telemetry,
    healthPort: () => (health as Server<unknown> | undefined)?.port,
    ready,
    onStop: (hook) => void hooks.push(hook),
    stop: async () => {
      if (stopping) return;
      stopping = true;
      for (const hook of hooks) await hook().catch((err) => logger.error('stop hook failed', { error: err }));
      await nc.drain().catch(() => undefined);
      await options.close?.().catch(() => undefined);
      health?.stop(true);
      // Last: the spans of the drain itself are exported too.
      await telemetry.shutdown().catch((err) => logger.warn('exporting the last spans failed', { error: err }));
      logger.info('service stopped');
    },
  };
}
