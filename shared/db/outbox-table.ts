import { bigint, datetime, index, mysqlTable, varchar } from 'drizzle-orm/mysql-core';
import { jsonColumn } from './json-column';

/**
 * The transactional outbox: a service writes its event here in the same transaction as the
 * change it announces, and the relay publishes it to JetStream afterwards, so no committed
 * change is ever lost between the database and the bus. Each publishing service exports one.
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
      publishedAt: datetime('published_at', { mode: 'date', fsp: 3 }),
    },
    (t) => [index('outbox_unpublished').on(t.publishedAt, t.id)],
  );
export type OutboxTable = ReturnType<typeof defineOutboxTable>;
