import { hostname } from 'node:os';
import { Type } from '@sinclair/typebox';
import { ConfigError, loadConfig, ServiceConfig } from '@shared/config/load-config';

export const SchedulerConfigSchema = {
  ...ServiceConfig({ databaseName: 'agents_scheduler', healthPort: 8084, outbox: false }),
  /** Due schedules one worker claims per round trip; each batch's fires go out concurrently. */
  SCHEDULER_BATCH_SIZE: Type.Integer({ minimum: 1, maximum: 1000, default: 50 }),
  /** Pause between polls when nothing is due (a full batch polls again at once). */
  SCHEDULER_POLL_MS: Type.Integer({ minimum: 10, maximum: 60000, default: 1000 }),
  /**
   * How far ahead of its fire time a row is claimed. A claimed row waits in the worker and is
   * fired at its fire time exactly, so lag no longer depends on the poll cadence, and one claim
   * and one settle serve every fire due in the next half of this window instead of a few. 0
   * claims only rows already due. The lease must cover it (see SCHEDULER_LEASE_MS).
   */
  SCHEDULER_LOOKAHEAD_MS: Type.Integer({ minimum: 0, maximum: 10000, default: 1000 }),
  /**
   * How long a claim keeps other workers off a row. A worker that dies after claiming delays
   * those fires by at most this much, so it must stay well under the shortest cron period
   * (one minute), and above SCHEDULER_LOOKAHEAD_MS + BUS_TIMEOUT_MS so a live worker keeps its
   * claim while a claimed row waits for its fire time and then for the reply.
   */
  SCHEDULER_LEASE_MS: Type.Integer({ minimum: 1000, maximum: 50000, default: 30000 }),
  /** After a bus error (timeout, no responders) the row stays due and is retried after this. */
  SCHEDULER_RETRY_MS: Type.Integer({ minimum: 100, maximum: 600000, default: 5000 }),
  /** Missed occurrences older than this (past their fire time) are skipped, never fired. */
  MISFIRE_WINDOW_MS: Type.Integer({ minimum: 0, maximum: 7 * 24 * 3600_000, default: 3600000 }),
  /** Upper bound (exclusive) of the deterministic per-deployment delay added to every fire. */
  JITTER_MAX_MS: Type.Integer({ minimum: 0, maximum: 3600000, default: 60000 }),
  /** Names this process in claims and logs; unique per replica. */
  SCHEDULER_WORKER_ID: Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,80}$', default: `${hostname().slice(0, 60)}-${process.pid}` }),
  /** Durable JetStream consumer of deployment events; shared by every replica of one install. */
  SCHEDULER_CONSUMER_NAME: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', default: 'scheduler-deployments' }),
};

export function loadSchedulerConfig(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(SchedulerConfigSchema, env);
  if (config.SCHEDULER_LEASE_MS <= config.SCHEDULER_LOOKAHEAD_MS + config.BUS_TIMEOUT_MS) {
    // A live worker still waiting for a fire time or a reply would lose its claim to another worker.
    throw new ConfigError(
      `Invalid configuration: SCHEDULER_LEASE_MS (${config.SCHEDULER_LEASE_MS}) must exceed SCHEDULER_LOOKAHEAD_MS + BUS_TIMEOUT_MS (${config.SCHEDULER_LOOKAHEAD_MS} + ${config.BUS_TIMEOUT_MS})`,
    );
  }
  return config;
}
export type SchedulerConfig = ReturnType<typeof loadSchedulerConfig>;
