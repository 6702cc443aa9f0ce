import { settle, type Settled } from '@shared/db/batcher';
import type { Database } from '@shared/db/connect';
import type { Executor } from '@shared/db/executor';
import { retryTransient } from '@shared/db/retry-transient';
import { found } from '@shared/errors/api-error';
import type { NewSessionEventBody, UsageDelta } from '@shared/schema/session-event';
import type { Tenant } from '@shared/schema/tenant';
import { appendRefusal } from '../domain/append-refusals';
import { sessionNotFound } from '../domain/not-found';
import { ownRow } from '../domain/row-tenant';
import { checkToolReferences, type ToolReference } from '../domain/session-events';
import { findSessionEvents } from './session-events';
import { appendFencedToSessionLog, appendRunsAtRowEnds, appendToSessionLog, type AppendedToLog, type LockedSession } from './session-log';
import { lockSessionForAppend, lockSessionsForAppend, type AppendingSession } from './sessions';

/**
 * Appends to existing sessions' logs, group-committed (`deps.logAppends`, start-deployments.ts):
 * those that arrive while one transaction is written go together in the next. A turn makes
 * three (the client's send, the runtime's two), each a transaction of five or six statements
 * alone (begin, the row's lock, the rows, the row's summary, the notice, commit); under load a
 * dozen are in flight, and one transaction serves them with one lock statement, one INSERT of
 * rows, one of notices and one commit, each session's UPDATE apart.
 */

/** A client's send (handlers/send-session-events.ts), its events checked already. */
export interface SentAppend {
  appender: 'client';
  tenant: Tenant;
  sessionId: string;
  events: NewSessionEventBody[];
  /** The logged events its tool results and confirmations answer. */
  references: ToolReference[];
}

/** The runtime's append (handlers/append-runtime-events.ts), fenced on the log's end. */
export interface RuntimeAppend {
  appender: 'runtime';
  tenant: Tenant;
  sessionId: string;
  afterSequence: number;
  events: NewSessionEventBody[];
  usage?: UsageDelta;
  /** The drive goes on from the reply: no notice for the work queue. */
  callerDrives?: boolean;
}

export type LogAppend = SentAppend | RuntimeAppend;

/**
 * A batch's outcomes, one per item in order. Refusals are each item's own (404, archived,
 * terminated, 409 from a fence). An item that needs the log read (a send answering tool calls,
 * a runtime append whose row's end is not its fence) is appended alone after the batch; and when
 * the batch's transaction fails (a log ahead of its row, a real error), each item is appended
 * again alone, so one bad item fails by itself.
 */
export async function appendBatch(db: Database, items: LogAppend[], now: () => Date): Promise<Settled<AppendedToLog>[]> {
  if (items.length === 1) return [await settle(() => appendAlone(db, items[0]!, now))];
  let outcomes: Array<Settled<AppendedToLog> | undefined>;
  try {
    outcomes = await retryTransient(() => db.transaction((tx) => appendTogether(tx, items, now())));
  } catch {
    outcomes = items.map(() => undefined);
  }
  for (const [at, item] of items.entries()) outcomes[at] ??= await settle(() => appendAlone(db, item, now));
  return outcomes as Settled<AppendedToLog>[];
}

/** An append in a transaction of its own, as each was before batches: the lock first, so its log's end is read under it. */
function appendAlone(db: Database, item: LogAppend, now: () => Date): Promise<AppendedToLog> {
  return retryTransient(() =>
    db.transaction(async (tx) => {
      const locked = writable(await lockSessionForAppend(tx, item.tenant, item.sessionId), item);
      if (item.appender === 'runtime') {
        const { afterSequence, events, usage, callerDrives } = item;
        return appendFencedToSessionLog(tx, locked, { afterSequence, events, usage, callerDrives }, now());
      }
      checkToolReferences(item.references, await findSessionEvents(tx, item.sessionId, item.references.map((r) => r.id)));
      return appendToSessionLog(tx, locked, item.events, now());
    }),
  );
}

/**
 * The batch in one transaction: every session locked in one statement, refusals settled, the
 * appends that go where their rows say the logs end written together (appendRunsAtRowEnds).
 * Undefined for the items left to append alone.
 */
async function appendTogether(tx: Executor, items: LogAppend[], at: Date): Promise<Array<Settled<AppendedToLog> | undefined>> {
  const rows = new Map((await lockSessionsForAppend(tx, items.map((item) => item.sessionId))).map((row) => [row.id, row]));
  const outcomes: Array<Settled<AppendedToLog> | undefined> = items.map(() => undefined);
  const together: Array<{ index: number; session: LockedSession; item: LogAppend }> = [];
  for (const [index, item] of items.entries()) {
    try {
      const session = writable(ownRow(rows.get(item.sessionId), item.tenant), item);
      if (atRowEnd(session, item)) together.push({ index, session, item });
    } catch (error) {
      outcomes[index] = { ok: false, error };
    }
  }
  const appended = await appendRunsAtRowEnds(
    tx,
    together.map(({ session, item }) =>
      item.appender === 'runtime' ? { session, events: item.events, usage: item.usage, notify: !item.callerDrives } : { session, events: item.events, notify: true },
    ),
    at,
  );
  together.forEach(({ index }, i) => (outcomes[index] = { ok: true, value: appended[i]! }));
  return outcomes;
}

/** Whether the append goes where its row says the log ends, with nothing of the log to read first. */
const atRowEnd = (session: AppendingSession, item: LogAppend) =>
  item.events.length > 0 && (item.appender === 'runtime' ? session.lastSequence === item.afterSequence : item.references.length === 0);

/** The item's session, if its appender may add to it: the tenant's (else 404), not refused (appendRefusal). */
function writable(session: AppendingSession | undefined, item: LogAppend): AppendingSession {
  const locked = found(session, () => sessionNotFound(item.sessionId));
  const refusal = appendRefusal(locked, item.appender);
  if (refusal) throw refusal;
  return locked;
}
