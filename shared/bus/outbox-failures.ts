import { eq } from 'drizzle-orm';
import type { Counter } from 'prom-client';
import type { Database } from '../db/connect';
import type { OutboxTables } from '../db/outbox-table';
import type { Logger } from '../log/logger';
import type { Clock } from '../time/clock';
import type { Telemetry } from '../telemetry/telemetry';
import { parkOutboxRow, publishErrorText } from './outbox-dead-letters';

/** The relay's retry settings when a service sets none (OUTBOX_MAX_ATTEMPTS, OUTBOX_RETRY_BASE_MS). */
export const OUTBOX_DEFAULTS = { maxAttempts: 8, retryBaseMs: 1000, retryMaxMs: 5 * 60_000 } as const;

export type OutboxRow = OutboxTables['outbox']['$inferSelect'];
type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/** What a relay is told: where it publishes, how it paces, how it treats a refused publish. */
export interface OutboxRelayOptions {
  prefix: string;
  logger: Logger;
  clock: Clock;
  pollMs?: number;
  batchSize?: number;
  /** How often a pass also recounts dead letters. */
  upkeepMs?: number;
  /** Failed publishes of one row before it is parked in the dead-letter table (OUTBOX_MAX_ATTEMPTS). */
  maxAttempts?: number;
  /** Wait before the second attempt (OUTBOX_RETRY_BASE_MS); doubles with each further one. */
  retryBaseMs?: number;
  /** Longest wait between two attempts of one row. */
  retryMaxMs?: number;
  /** The service's metrics (backlog, age, failures, dead letters) and traces (events published from a handler carry its span). */
  telemetry?: Telemetry;
}

export interface PublishFailureRules {
  maxAttempts?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
}

/** Wait after the n-th failed attempt: base, 2×base, 4×base … capped. */
export function outboxBackoffMs(attempts: number, rules: PublishFailureRules): number {
  const base = rules.retryBaseMs ?? OUTBOX_DEFAULTS.retryBaseMs;
  const max = rules.retryMaxMs ?? OUTBOX_DEFAULTS.retryMaxMs;
  return Math.min(max, base * 2 ** Math.min(attempts - 1, 30));
}

/**
 * A publish the bus refused while it answered: the row's attempt is counted and it waits its
 * backoff, or, at the last attempt, it is parked in the dead-letter table for an operator.
 */
export async function recordPublishFailure(
  tx: Transaction,
  tables: OutboxTables,
  row: OutboxRow,
  failure: { error: unknown; now: Date },
  context: { rules: PublishFailureRules; logger: Logger; counters: { parked: Counter; failures: Counter } },
): Promise<void> {
  const { outbox } = tables;
  const maxAttempts = context.rules.maxAttempts ?? OUTBOX_DEFAULTS.maxAttempts;
  const attempts = row.attempts + 1;
  const lastError = publishErrorText(failure.error);
  // The event's id and subject identify it; its payload may hold tenant content and never goes to a log.
  const fields = { event_id: row.eventId, subject: row.subject, attempts, error: lastError };
  context.counters.failures.inc();
  if (attempts >= maxAttempts) {
    await parkOutboxRow(tx, tables, row, { attempts, lastError, parkedAt: failure.now });
    context.counters.parked.inc();
    context.logger.error('outbox event parked in the dead-letter table: the bus refused it on every attempt', fields);
    return;
  }
  const nextAttemptAt = new Date(failure.now.getTime() + outboxBackoffMs(attempts, context.rules));
  await tx.update(outbox).set({ attempts, lastError, nextAttemptAt }).where(eq(outbox.id, row.id));
  context.logger.warn('outbox event publish failed; will retry', { ...fields, next_attempt_at: nextAttemptAt.toISOString() });
}
