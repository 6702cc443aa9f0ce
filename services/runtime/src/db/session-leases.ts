import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '@shared/db/executor';
import { sessionLeases } from './schema';

/**
 * Takes (or renews) this replica's lease on a session: granted when nobody holds it, when its
 * holder is this replica, or when the holder's lease has lapsed. One statement, so two replicas
 * racing for a session cannot both win.
 */
export async function takeSessionLease(db: Executor, sessionId: string, holder: string, now: Date, until: Date): Promise<boolean> {
  await db
    .insert(sessionLeases)
    .values({ sessionId, holder, expiresAt: until })
    .onDuplicateKeyUpdate({
      set: {
        holder: sql`IF(${sessionLeases.holder} = ${holder} OR ${sessionLeases.expiresAt} < ${now}, ${holder}, ${sessionLeases.holder})`,
        expiresAt: sql`IF(${sessionLeases.holder} = ${holder}, ${until}, ${sessionLeases.expiresAt})`,
      },
    });
  const [row] = await db.select({ holder: sessionLeases.holder }).from(sessionLeases).where(eq(sessionLeases.sessionId, sessionId));
  return row?.holder === holder;
}

/** Gives a session back (only if this replica still holds it). */
export async function releaseSessionLease(db: Executor, sessionId: string, holder: string): Promise<void> {
  await db.delete(sessionLeases).where(and(eq(sessionLeases.sessionId, sessionId), eq(sessionLeases.holder, holder)));
}
