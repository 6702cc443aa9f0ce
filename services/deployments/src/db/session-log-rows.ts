import { eq, sql } from 'drizzle-orm';
import type { Executor } from '@shared/db/executor';
import { preparedByShape, preparedInsert, setPlaceholders } from '@shared/db/prepared';
import { sessionEventLog, sessions, type SessionEventRow, type SessionRow } from './schema';

/**
 * The two writes of every append to a session's log (db/session-log.ts), as prepared statements
 * (shared/db/prepared.ts): a client's send and the runtime's two appends a turn made drizzle build
 * both anew each time. One statement is kept per shape: an insert per row count, up to
 * PREPARED_MAX_ROWS (a new session's batch of initial events, or a long tool-using step, is built
 * as before), and an update per set of columns written (a few dozen at most).
 */
const PREPARED_MAX_ROWS = 8;

/** The log's rows of one append, in one INSERT. */
export const insertLogRows: (tx: Executor, rows: SessionEventRow[]) => Promise<unknown> = preparedInsert(
  ['sessionId', 'sequence', 'id', 'type', 'processedAt', 'body'],
  PREPARED_MAX_ROWS,
  (db, rows) => db.insert(sessionEventLog).values(rows as SessionEventRow[]),
);

/** What a session's row sums up of its log (the columns an append moves on). */
export type LogSummaryChange = Partial<Pick<SessionRow, 'lastSequence' | 'status' | 'updatedAt' | 'outcomeEvaluations' | 'usage'>>;

/** Writes `change` to the session's row in one UPDATE. */
export async function writeLogSummary(tx: Executor, sessionId: string, change: LogSummaryChange): Promise<void> {
  const columns = (Object.keys(change) as Array<keyof LogSummaryChange>).filter((column) => change[column] !== undefined).sort();
  if (columns.length === 0) return;
  await updateSummary(tx, columns.join(), { ...change, sessionId });
}

const updateSummary = preparedByShape((db, shape: string) =>
  db
    .update(sessions)
    .set(setPlaceholders(shape.split(',')))
    .where(eq(sessions.id, sql.placeholder('sessionId')))
    .prepare(),
);
