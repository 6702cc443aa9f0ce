import { connect } from '@nats-io/transport-node';
import { BusClient } from '@shared/bus/bus-client';
import { PayloadCodec } from '@shared/bus/payload-codec';
import { connectDatabase, type DatabaseHandle } from '@shared/db/connect';
import { createLogger } from '@shared/log/logger';
import { bucketName } from '@shared/runtime/service-runtime';
import type { Clock } from '@shared/time/clock';
import type { SchedulerConfig } from '../../services/scheduler/src/config';
import { createSchedulerEngine, type SchedulerEngine } from '../../services/scheduler/src/engine/scheduler-engine';

/** A scheduler worker as a separate replica would be: its own DB pool and NATS connection. */
export interface SchedulerWorker {
  name: string;
  engine: SchedulerEngine;
  handle: DatabaseHandle;
  /** Resolves when the worker is killed, so a tick hung on a dead connection can be abandoned. */
  killed: Promise<void>;
  isKilled(): boolean;
  /** A crash: every DB connection is cut at once (uncommitted work rolls back), nothing settles. */
  kill(): void;
  close(): Promise<void>;
}

export interface SchedulerWorkerOptions {
  config: SchedulerConfig;
  clock: Clock;
  name: string;
  poolSize?: number;
  /** Runs after each fire reply, before the batch settles: where a crash hurts most. */
  afterFire?: () => void;
  /** Called once when the worker is killed or closed, so its owner can forget it. */
  onGone?: (worker: SchedulerWorker) => void;
}

export async function startSchedulerWorker(options: SchedulerWorkerOptions): Promise<SchedulerWorker> {
  const { config, name } = options;
  const handle = await connectDatabase({ ...config, MYSQL_POOL_SIZE: options.poolSize ?? 3 }, config.DATABASE_NAME);
  const connections: Array<{ destroy(): void }> = [];
  handle.pool.on('connection', (c) => connections.push(c as unknown as { destroy(): void }));
  const nc = await connect({ servers: config.NATS_URL });
  const logger = createLogger('error');
  const client = new BusClient(nc, new PayloadCodec(nc, bucketName(config.BUS_PREFIX)), {
    prefix: config.BUS_PREFIX,
    timeoutMs: config.BUS_TIMEOUT_MS,
    logger,
  });
  const afterFire = options.afterFire;
  const engine = createSchedulerEngine({
    db: handle.db,
    clock: options.clock,
    client: afterFire
      ? {
          call: (async (...args: Parameters<BusClient['call']>) => {
            const reply = await client.call(...args);
            afterFire();
            return reply;
          }) as BusClient['call'],
        }
      : client,
    logger,
    config: { ...config, SCHEDULER_WORKER_ID: name },
  });
  let killed = false;
  let onKilled!: () => void;
  const worker: SchedulerWorker = {
    name,
    engine,
    handle,
    killed: new Promise<void>((resolve) => (onKilled = resolve)),
    isKilled: () => killed,
    kill: () => {
      if (killed) return;
      killed = true;
      for (const c of connections) c.destroy();
      handle.pool.end().catch(() => undefined);
      // Requests already on the wire may still arrive; a crashed process's would too.
      nc.close().catch(() => undefined);
      options.onGone?.(worker);
      onKilled();
    },
    close: async () => {
      options.onGone?.(worker);
      await engine.stop();
      await handle.close().catch(() => undefined);
      await nc.close().catch(() => undefined);
    },
  };
  return worker;
}

/** Ticks one worker until it finds nothing claimable; stops early if the worker is killed. */
export async function drainWorker(worker: SchedulerWorker): Promise<void> {
  while (!worker.isKilled()) {
    const tick = worker.engine.tick();
    tick.catch(() => undefined);
    const summary = await Promise.race([tick, worker.killed.then(() => null)]).catch((err) => {
      if (worker.isKilled()) return null;
      throw err;
    });
    if (!summary || summary.claimed === 0) return;
  }
}
