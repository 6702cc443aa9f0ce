import { and, eq, lt, or, sql } from 'drizzle-orm';
import { createBatcher } from '@shared/db/batcher';
import type { Executor } from '@shared/db/executor';
import { prepared, preparedByShape, preparedInsert, setPlaceholders } from '@shared/db/prepared';
import { sessionLeases } from './schema';

/**
 * A session's lease: which drive holds it, until when. Each function is one statement where it
 * can be, so two replicas racing for a session cannot both win, and a drive costs the database as
 * little as it can (every turn takes a lease and gives it back).
 *
 * Affected rows, not a read back: mysql2 connects with CLIENT_FOUND_ROWS, so an UPDATE counts the
 * rows it matched, changed or not; INSERT IGNORE counts 0 for a key already there. Prepared once
 * (shared/db/prepared.ts). Every turn takes a lease and gives it back: under load, in batches
 * (batchedSessionLeases), whose two statements serve the drives that start and end together.
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

/** Gives a session back (only if this holder still holds it): a batch of one release. */
export async function releaseSessionLease(db: Executor, sessionId: string, holder: string): Promise<void> {
  await changeSessionLeases(db, [{ kind: 'release', sessionId, holder }]);
}

/** A drive's lease change, as a batch of them takes it: its take, or its giving back. */
export type LeaseChange =
  | { kind: 'take'; sessionId: string; holder: string; now: Date; until: Date }
  | { kind: 'release'; sessionId: string; holder: string };

/**
 * The lease changes of drives that start and end together, in two statements in place of one
 * each: the releases in one DELETE, then the takes in one INSERT IGNORE; when that stores fewer
 * rows than it has (a session somebody holds, or held and let lapse), each take is made again
 * alone (takeSessionLease: a row this INSERT stored is the take's own, so its extension grants
 * it). At most one change per session in a batch (the caller's batcher keys on the session), so
 * a drive's release is written before the next drive of its session asks. Whether each change
 * holds: a take granted; a release, always.
 */
export async function changeSessionLeases(db: Executor, changes: LeaseChange[]): Promise<boolean[]> {
  const releases = changes.flatMap((change) => (change.kind === 'release' ? [change] : []));
  const takes = changes.flatMap((change) => (change.kind === 'take' ? [change] : []));
  if (releases.length > 0) {
    const values: Record<string, unknown> = {};
    releases.forEach(({ sessionId, holder }, i) => Object.assign(values, { [`sessionId${i}`]: sessionId, [`holder${i}`]: holder }));
    await releaseStatements(db, releases.length, values);
  }
  const granted = new Map<LeaseChange, boolean>();
  // One take alone: its own INSERT, and the takeover's UPDATE only if that stored nothing.
  if (takes.length === 1) granted.set(takes[0]!, await takeSessionLease(db, takes[0]!.sessionId, takes[0]!.holder, takes[0]!.now, takes[0]!.until));
  else if (takes.length > 1) {
    const stored = affected(await insertLeases(db, takes.map(({ sessionId, holder, until }) => ({ sessionId, holder, expiresAt: until }))));
    for (const take of takes) granted.set(take, stored === takes.length || (await takeSessionLease(db, take.sessionId, take.holder, take.now, take.until)));
  }
  return changes.map((change) => granted.get(change) ?? true);
}

/** Most lease changes one batch makes: each count of releases and of takes is a statement prepared once. */
const MAX_LEASE_CHANGES = 32;

const releaseStatements = preparedByShape((db, count: number) =>
  db
    .delete(sessionLeases)
    .where(
      or(
        ...Array.from({ length: count }, (_, i) =>
          and(eq(sessionLeases.sessionId, sql.placeholder(`sessionId${i}`)), eq(sessionLeases.holder, sql.placeholder(`holder${i}`))),
        ),
      ),
    )
    .prepare(),
);

const insertLeases = preparedInsert(['sessionId', 'holder', 'expiresAt'], MAX_LEASE_CHANGES, (db, rows) =>
  db.insert(sessionLeases).ignore().values(rows as Array<typeof sessionLeases.$inferInsert>),
);

/** A replica's leases as its drives take and give them back: batched (changeSessionLeases). */
export interface SessionLeases {
  take(sessionId: string, holder: string, now: Date, until: Date): Promise<boolean>;
  release(sessionId: string, holder: string): Promise<void>;
  /** Resolves when no change is waiting or being written. */
  idle(): Promise<void>;
}

/**
 * The replica's lease changes, batched: those asked while a batch is written go together in the
 * next (one at a time, so a session's release is stored before its next take is tried). Alone, a
 * change is written at once, as before; under load a turn's two statements serve a dozen drives.
 */
export function batchedSessionLeases(db: Executor): SessionLeases {
  const batcher = createBatcher(
    async (changes: LeaseChange[]) => (await changeSessionLeases(db, changes)).map((value) => ({ ok: true as const, value })),
    { keyOf: (change) => change.sessionId, maxBatch: MAX_LEASE_CHANGES },
  );
  return {
    take: (sessionId, holder, now, until) => batcher.call({ kind: 'take', sessionId, holder, now, until }),
    release: async (sessionId, holder) => {
      await batcher.call({ kind: 'release', sessionId, holder });
    },
    idle: () => batcher.idle(),
  };
}
