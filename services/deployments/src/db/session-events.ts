import { and, asc, desc, eq, gt, inArray, lt, max, sql, type SQL } from 'drizzle-orm';
import { newEventEnvelope, recordEvents } from '@shared/bus/outbox';
import type { Executor } from '@shared/db/executor';
import { prepared } from '@shared/db/prepared';
import { LIST_READ_CHUNK, PAGE_BYTE_BUDGET } from '@shared/db/keyset-page';
import { createdAtConditions } from '@shared/db/list-filters';
import { newId } from '@shared/ids/ids';
import type { PagePosition } from '@shared/schema/common';
import { sessionLogEvents, type SessionEvent, type SessionEventListFilters } from '@shared/schema/session-event';
import type { Tenant } from '@shared/schema/tenant';
import { presentSessionEvent } from '../domain/session-events';
import { outbox, sessionEventLog, type SessionEventRow } from './schema';

// A session's event log: reading it (pages, streams, references) and deleting it. Appending to
// it is db/session-log.ts's alone.

/**
 * Deletes a session's log in the caller's transaction (with the session), and records the
 * notification that makes open streams send `session.deleted` and end.
 */
export async function deleteSessionEvents(
  tx: Executor,
  tenant: Pick<Tenant, 'organization_id' | 'workspace_id'>,
  sessionId: string,
  now: Date,
): Promise<void> {
  await tx.delete(sessionEventLog).where(eq(sessionEventLog.sessionId, sessionId));
  const notice = newEventEnvelope(
    sessionLogEvents.deleted,
    tenant,
    { session_id: sessionId, event_id: newId('sessionEvent'), processed_at: now.toISOString() },
    now,
  );
  await recordEvents(tx, outbox, [notice]);
}

/**
 * The session's last sequence as its log has it (0: empty log): for a follow read, and for an
 * append (under the session's row lock) only when the row's `last_sequence` may be behind it.
 */
export async function lastSequence(db: Executor, sessionId: string): Promise<number> {
  const [row] = await selectLastSequence(db, { sessionId });
  return row?.last ?? 0;
}

// Every stream's first read (from the log's end) asks it.
const selectLastSequence = prepared((db) =>
  db
    .select({ last: max(sessionEventLog.sequence) })
    .from(sessionEventLog)
    .where(eq(sessionEventLog.sessionId, sql.placeholder('sessionId')))
    .prepare(),
);

/** The session's events with these ids (what tool results and confirmations refer to). */
export async function findSessionEvents(db: Executor, sessionId: string, ids: string[]): Promise<SessionEventRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(sessionEventLog)
    .where(and(eq(sessionEventLog.sessionId, sessionId), inArray(sessionEventLog.id, [...new Set(ids)])));
}

/** The sequence of one of the session's events, or undefined when it has none with this id. */
export async function sequenceOf(db: Executor, sessionId: string, eventId: string): Promise<number | undefined> {
  const [row] = await db
    .select({ sequence: sessionEventLog.sequence })
    .from(sessionEventLog)
    .where(and(eq(sessionEventLog.id, eventId), eq(sessionEventLog.sessionId, sessionId)));
  return row?.sequence;
}

// ---------------------------------------------------------------------------------------------
// Reading runs of the log by sequence, in chunks, within the page byte budget.

type Direction = 'up' | 'down';

interface Run {
  rows: SessionEventRow[];
  /** Whether rows follow the last one read in that direction. */
  more: boolean;
}

/**
 * Up to `limit` rows of the session beyond sequence `from` (exclusive; null: from the end the
 * direction starts at), matching `conditions`, in `direction`'s order. Read LIST_READ_CHUNK rows
 * a query so a page holds few stored rows at once, and stopped at PAGE_BYTE_BUDGET of JSON (one
 * row always kept, so reading always moves on).
 */
async function readRun(db: Executor, sessionId: string, conditions: SQL[], from: number | null, direction: Direction, limit: number): Promise<Run> {
  const t = sessionEventLog;
  return readChunks(from, limit, (cursor, count) => {
    const beyond = cursor === null ? undefined : direction === 'up' ? gt(t.sequence, cursor) : lt(t.sequence, cursor);
    return db
      .select()
      .from(t)
      .where(and(eq(t.sessionId, sessionId), ...conditions, beyond))
      .orderBy(direction === 'up' ? asc(t.sequence) : desc(t.sequence))
      .limit(count);
  });
}

/** readRun's loop: chunks of rows beyond the cursor (`read`), kept within `limit` and the page byte budget. */
async function readChunks(
  from: number | null,
  limit: number,
  read: (cursor: number | null, count: number) => Promise<SessionEventRow[]>,
): Promise<Run> {
  const rows: SessionEventRow[] = [];
  let bytes = 1;
  let cursor = from;
  for (;;) {
    const wanted = limit - rows.length + 1;
    const count = wanted <= LIST_READ_CHUNK + 1 ? wanted : LIST_READ_CHUNK;
    const chunk = await read(cursor, count);
    for (const row of chunk) {
      if (rows.length === limit) return { rows, more: true };
      const size = Buffer.byteLength(JSON.stringify(row.body)) + 100;
      if (rows.length > 0 && bytes + size > PAGE_BYTE_BUDGET) return { rows, more: true };
      rows.push(row);
      bytes += size;
      cursor = row.sequence;
    }
    if (chunk.length < count) return { rows, more: false };
  }
}

const positionOf = (row: SessionEventRow): PagePosition => ({ created_at: row.processedAt.toISOString(), id: row.id });

/**
 * One page of a session's events (the caller checked the session is the tenant's), paging both
 * ways like the sessions list: `after` continues in the list's order, `before` returns the page
 * before a position in the same order; `next`/`prev` are where the following/preceding pages
 * start. A position is an event; the order is the log's (sequence), which is processed_at order.
 * Undefined when the position names no event of this session (a cursor outliving its log).
 */
export async function listSessionEventPage(
  db: Executor,
  filters: SessionEventListFilters,
  limit: number,
  anchor: { after: PagePosition } | { before: PagePosition } | null,
): Promise<{ data: SessionEvent[]; next: PagePosition | null; prev: PagePosition | null } | undefined> {
  const conditions: SQL[] = [...createdAtConditions(sessionEventLog.processedAt, filters)];
  if (filters.types) conditions.push(inArray(sessionEventLog.type, filters.types));
  const forward: Direction = filters.order === 'asc' ? 'up' : 'down';
  const backward: Direction = forward === 'up' ? 'down' : 'up';
  let from: number | null = null;
  if (anchor) {
    const position = 'after' in anchor ? anchor.after : anchor.before;
    const sequence = await sequenceOf(db, filters.session_id, position.id);
    if (sequence === undefined) return undefined;
    from = sequence;
  }
  if (anchor && 'before' in anchor) {
    const run = await readRun(db, filters.session_id, conditions, from, backward, limit);
    const rows = run.rows.reverse();
    return {
      data: rows.map(presentSessionEvent),
      next: rows.length > 0 ? positionOf(rows[rows.length - 1]) : null,
      prev: run.more && rows.length > 0 ? positionOf(rows[0]) : null,
    };
  }
  const run = await readRun(db, filters.session_id, conditions, from, forward, limit);
  const rows = run.rows;
  return {
    data: rows.map(presentSessionEvent),
    next: run.more && rows.length > 0 ? positionOf(rows[rows.length - 1]) : null,
    prev: anchor && rows.length > 0 ? positionOf(rows[0]) : null,
  };
}

/**
 * The session's events after `sequence`, in order, with their sequences (what a stream delivers
 * next), and whether more follow them: when none do, the read reached the log's end.
 */
export async function readEventsAfter(db: Executor, sessionId: string, sequence: number, limit: number): Promise<Run> {
  // readRun's read in ascending order, as one prepared statement: every stream's read and every step of a drive.
  return readChunks(sequence, limit, (cursor, count) => selectEventsAfter(db, { session_id: sessionId, after: cursor, count }));
}

const selectEventsAfter = prepared((db) =>
  db
    .select()
    .from(sessionEventLog)
    .where(and(eq(sessionEventLog.sessionId, sql.placeholder('session_id')), gt(sessionEventLog.sequence, sql.placeholder('after'))))
    .orderBy(asc(sessionEventLog.sequence))
    .limit(sql.placeholder('count'))
    .prepare(),
);
