import { bigint, datetime, int, mysqlTable, varchar } from 'drizzle-orm/mysql-core';
import { jsonColumn } from './json-column';

/** Longest publish error text kept on a row (the client's and the server's messages are short). */
export const OUTBOX_ERROR_MAX_CHARS = 1000;

/**
 * The transactional outbox: a service writes its event here in the same transaction as the
 * change it announces, and the relay publishes it to JetStream afterwards, so no committed
 * change is ever lost between the database and the bus. Each publishing service exports one.
 * A row stays only until JetStream has its event: the relay deletes it once published (the
 * stream is the record), which keeps the table a few pages at any rate of change. A row whose
 * publish fails is retried after `next_attempt_at` (the backoff), so it never holds back the
 * rows behind it; `attempts` and `last_error` say why it is still here.
 */
export const defineOutboxTable = () =>
  mysqlTable(
    'outbox',
    {
      id: bigint('id', { mode: 'number', unsigned: true }).autoincrement().primaryKey(),
      eventId: varchar('event_id', { length: 40 }).notNull().unique(),
      subject: varchar('subject', { length: 200 }).notNull(),
      payload: jsonColumn<unknown>('payload').notNull(),
      createdAt: datetime('created_at', { mode: 'date', fsp: 3 }).notNull(),
      attempts: int('attempts', { unsigned: true }).notNull().default(0),
      lastError: varchar('last_error', { length: OUTBOX_ERROR_MAX_CHARS }),
      nextAttemptAt: datetime('next_attempt_at', { mode: 'date', fsp: 3 }),
    },
  );
export type OutboxTable = ReturnType<typeof defineOutboxTable>;

/**
 * Where the relay parks a row the bus still refused after its bounded retries: the event as it
 * was recorded (same id, subject and payload, so a re-drive publishes exactly that event), why
 * it failed and when it was parked. Rows stay until an operator re-drives them (`bun run outbox`).
 */
export const defineOutboxDeadLetterTable = () =>
  mysqlTable('outbox_dead_letters', {
    id: bigint('id', { mode: 'number', unsigned: true }).autoincrement().primaryKey(),
    eventId: varchar('event_id', { length: 40 }).notNull().unique(),
    subject: varchar('subject', { length: 200 }).notNull(),
    payload: jsonColumn<unknown>('payload').notNull(),
    createdAt: datetime('created_at', { mode: 'date', fsp: 3 }).notNull(),
    attempts: int('attempts', { unsigned: true }).notNull(),
    lastError: varchar('last_error', { length: OUTBOX_ERROR_MAX_CHARS }).notNull(),
    parkedAt: datetime('parked_at', { mode: 'date', fsp: 3 }).notNull(),
  });
export type OutboxDeadLetterTable = ReturnType<typeof defineOutboxDeadLetterTable>;

/** A service's outbox and the dead-letter table beside it, in its own database. */
export interface OutboxTables {
  outbox: OutboxTable;
  deadLetters: OutboxDeadLetterTable;
}
