import { and, eq, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '@shared/db/executor';
import { prepared, setPlaceholders } from '@shared/db/prepared';
import { sessionLeases } from './schema';

/**
 * A session's lease: which drive holds it, until when. Each function is one statement where it
 * can be, so two replicas racing for a session cannot both win, and a drive costs the database as
 * little as it can (every turn takes a lease and gives it back).
 *
 * Affected rows, not a read back: mysql2 connects with CLIENT_FOUND_ROWS, so an UPDATE counts the
 * rows it matched, changed or not; INSERT IGNORE counts 0 for a key already there. Prepared once
 * (shared/db/prepared.ts): two of them run at every turn.
 */

const affected = (result: unknown) => (result as [{ affectedRows: number }])[0].affectedRows;

/**
 * Stores the lease if nobody holds the session (no row): the usual case, since a drive gives it
 * back when done. IGNORE would also cut a value too long for its column instead of failing: the
 * holder (a worker id of at most 80 characters, '/', a UUID) and the session id always fit.
 */
async function insertLease(db: Executor, sessionId: string, holder: string, until: Date): Promise<boolean> {
  return affected(await insertStatement(db, { sessionId, holder, until })) === 1;
}

const insertStatement = prepared((db) =>
  db.insert(sessionLeases).ignore().values({ sessionId: sql.placeholder('sessionId'), holder: sql.placeholder('holder'), expiresAt: sql.placeholder('until') }).prepare(),
);

/** Moves the lease to `holder` (until `until`) if it holds it already or its holder's lease has lapsed. */
async function extendLease(db: Executor, sessionId: string, holder: string, now: Date, until: Date): Promise<boolean> {
  return affected(await extendStatement(db, { sessionId, holder, now, expiresAt: until })) === 1;
}

const extendStatement = prepared((db) =>
  db
    .update(sessionLeases)
    .set(setPlaceholders(['holder', 'expiresAt']))
    .where(and(eq(sessionLeases.sessionId, sql.placeholder('sessionId')), or(eq(sessionLeases.holder, sql.placeholder('holder')), lt(sessionLeases.expiresAt, sql.placeholder('now')))))
    .prepare(),
);

/**
 * Takes a session's lease for a new drive: granted when nobody holds it, or when its holder's
 * lease has lapsed (a crashed replica's). One statement when the session is free; a second only
 * when a row is there, to take it over if it lapsed.
 */
export async function takeSessionLease(db: Executor, sessionId: string, holder: string, now: Date, until: Date): Promise<boolean> {
  return (await insertLease(db, sessionId, holder, until)) || extendLease(db, sessionId, holder, now, until);
}

/**
 * Renews a drive's lease: one statement while it still holds it. A lease that lapsed meanwhile
 * is taken again if nobody else took it (as the take would); false when another drive has it.
 */
export async function renewSessionLease(db: Executor, sessionId: string, holder: string, now: Date, until: Date): Promise<boolean> {
  return (await extendLease(db, sessionId, holder, now, until)) || insertLease(db, sessionId, holder, until);
}

/** Gives a session back (only if this replica still holds it). */
export async function releaseSessionLease(db: Executor, sessionId: string, holder: string): Promise<void> {
  await releaseStatement(db, { sessionId, holder });
}

const releaseStatement = prepared((db) =>
  db.delete(sessionLeases).where(and(eq(sessionLeases.sessionId, sql.placeholder('sessionId')), eq(sessionLeases.holder, sql.placeholder('holder')))).prepare(),
);
