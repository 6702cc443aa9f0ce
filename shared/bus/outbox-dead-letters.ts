import { asc, count, eq, gt, sql } from 'drizzle-orm';
import type { Database } from '../db/connect';
import type { Executor } from '../db/executor';
import { OUTBOX_ERROR_MAX_CHARS, type OutboxTables } from '../db/outbox-table';

type OutboxRow = OutboxTables['outbox']['$inferSelect'];

/** An error as one short line for a row and a log: `name: message`, never the payload. */
export function publishErrorText(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return text.length > OUTBOX_ERROR_MAX_CHARS ? text.slice(0, OUTBOX_ERROR_MAX_CHARS - 1) + '…' : text;
}

/**
 * Moves an outbox row aside, in the caller's transaction (the one holding the row's lock), so the
 * event is never in both tables nor in neither: same id, subject, payload and creation time.
 */
export async function parkOutboxRow(
  tx: Executor,
  tables: OutboxTables,
  row: OutboxRow,
  failure: { attempts: number; lastError: string; parkedAt: Date },
): Promise<void> {
  await tx.insert(tables.deadLetters).values({
    eventId: row.eventId,
    subject: row.subject,
    payload: row.payload,
    createdAt: row.createdAt,
    attempts: failure.attempts,
    lastError: failure.lastError,
    parkedAt: failure.parkedAt,
  });
  await tx.delete(tables.outbox).where(eq(tables.outbox.id, row.id));
}

export async function countParkedEvents(db: Executor, tables: OutboxTables): Promise<number> {
  const [row] = await db.select({ n: count() }).from(tables.deadLetters);
  return Number(row?.n ?? 0);
}

/** What an operator sees of a parked event: who, what, why, when; the payload only as a size. */
export interface ParkedEvent {
  eventId: string;
  subject: string;
  organizationId: string | null;
  workspaceId: string | null;
  attempts: number;
  lastError: string;
  createdAt: Date;
  parkedAt: Date;
  payloadBytes: number;
}

/** Parked events, oldest first, `limit` at a time after `afterId` (the dead-letter row id). */
export async function listParkedEvents(
  db: Executor,
  tables: OutboxTables,
  page: { limit: number; afterId?: number },
): Promise<Array<ParkedEvent & { id: number }>> {
  const t = tables.deadLetters;
  const rows = await db
    .select({
      id: t.id,
      eventId: t.eventId,
      subject: t.subject,
      organizationId: sql<string | null>`JSON_UNQUOTE(JSON_EXTRACT(${t.payload}, '$.organization_id'))`,
      workspaceId: sql<string | null>`JSON_UNQUOTE(JSON_EXTRACT(${t.payload}, '$.workspace_id'))`,
      attempts: t.attempts,
      lastError: t.lastError,
      createdAt: t.createdAt,
      parkedAt: t.parkedAt,
      payloadBytes: sql<number>`LENGTH(${t.payload})`,
    })
    .from(t)
    .where(page.afterId === undefined ? undefined : gt(t.id, page.afterId))
    .orderBy(asc(t.id))
    .limit(page.limit);
  return rows.map((r) => ({ ...r, payloadBytes: Number(r.payloadBytes) }));
}

/**
 * Puts parked events back into the outbox, each in its own transaction (delete from the
 * dead-letter table, insert into the outbox, under the parked row's lock), with a fresh attempt
 * count; the relay publishes them on its next pass, with the same event id as msgID, so a
 * consumer that somehow saw one already is deduplicated. Returns the ids that were parked.
 */
export async function redriveParkedEvents(db: Database, tables: OutboxTables, eventIds: readonly string[]): Promise<string[]> {
  const done: string[] = [];
  for (const eventId of eventIds) {
    const moved = await db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(tables.deadLetters)
        .where(eq(tables.deadLetters.eventId, eventId))
        .for('update');
      if (!row) return false;
      await tx.insert(tables.outbox).values({
        eventId: row.eventId,
        subject: row.subject,
        payload: row.payload,
        createdAt: row.createdAt,
      });
      await tx.delete(tables.deadLetters).where(eq(tables.deadLetters.id, row.id));
      return true;
    });
    if (moved) done.push(eventId);
  }
  return done;
}

/** Every parked event's id, oldest first (for `redrive --all`). */
export async function parkedEventIds(db: Executor, tables: OutboxTables): Promise<string[]> {
  const rows = await db.select({ eventId: tables.deadLetters.eventId }).from(tables.deadLetters).orderBy(asc(tables.deadLetters.id));
  return rows.map((r) => r.eventId);
}
