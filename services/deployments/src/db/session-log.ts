import { newEventEnvelope, recordEvents } from '@shared/bus/outbox';
import type { EventEnvelope } from '@shared/bus/event';
import { isDuplicateKey } from '@shared/db/duplicate-key';
import type { Executor } from '@shared/db/executor';
import { conflict } from '@shared/errors/api-error';
import { newId } from '@shared/ids/ids';
import { sessionLogEvents, type NewSessionEventBody, type SessionEventBody, type UsageDelta } from '@shared/schema/session-event';
import { advanceOutcomeEvaluations, outcomeEvaluationsOf, touchesOutcomes } from '../domain/outcome-evaluations';
import { tenantOfRow } from '../domain/row-tenant';
import { noticeEvents, outcomeIdOf, statusAfter } from '../domain/session-events';
import { addUsage } from '../domain/session-usage';
import { outbox, type SessionEventRow, type SessionRow } from './schema';
import { insertLogRows, writeLogSummary, type LogSummaryChange } from './session-log-rows';
import { lastSequence } from './session-events';

/**
 * The one way into a session's event log. Every path that adds to a log comes through here: a
 * new session's initial events (the API's create and the fire, via recordNewSessions), a
 * client's send, a session update's `session.updated`, the runtime's fenced append, and the
 * archive's notice without an event. So what an append implies is done in one place: the next
 * sequences, a define_outcome's outcome id, the status the log's last status event gives the
 * session, the outcome evaluations it moves on, and the `sessions.log_appended` notice.
 */

/** Events appended to one session's log. */
export interface SessionLogAppend {
  sessionId: string;
  events: NewSessionEventBody[];
  /** Their `processed_at`: the instant the log accepted them. */
  at: Date;
  /** Where the log ends before them (an existing session's, read under its lock); 0 or omitted for a new session. */
  after?: number;
}

type LoggedSession = Pick<SessionRow, 'id' | 'organizationId' | 'workspaceId'>;
/** An existing session as its appender locked it: what its row's summary of the log follows from. */
export type LockedSession = LoggedSession & Pick<SessionRow, 'outcomeEvaluations' | 'initialEvents' | 'usage' | 'lastSequence' | 'revision'>;

/**
 * Appends events to session logs in the caller's transaction, with one INSERT for the whole
 * batch (a batch of fires is one statement): each event gets its id, the next sequence of its
 * session, and a define_outcome its outcome id. A session whose batch holds status events takes
 * the status of the last one (the log is the truth, `sessions.status` its summary); nothing
 * else is derived. For a NEW session (create, fire), whose outcome evaluations its row already
 * holds; an existing one's log grows through appendToSessionLog.
 */
export async function appendSessionEvents(tx: Executor, batch: SessionLogAppend[]): Promise<SessionEventRow[]> {
  const rows = logRows(batch);
  if (rows.length === 0) return rows;
  await insertLogRows(tx, rows);
  for (const { sessionId, events, at } of batch) {
    const status = statusAfter(events);
    if (status) await writeLogSummary(tx, sessionId, { status, updatedAt: at });
  }
  return rows;
}

/** The log's rows of a batch of appends: each event's id, the next sequence of its session, a define_outcome's outcome id. */
function logRows(batch: SessionLogAppend[]): SessionEventRow[] {
  return batch.flatMap(({ sessionId, events, at, after = 0 }) =>
    events.map(({ id, ...event }, i) => {
      const sequence = after + i + 1;
      const body = event.type === 'user.define_outcome' ? { ...event, outcome_id: outcomeIdOf(sessionId, sequence) } : event;
      return { sessionId, sequence, id: id ?? newId('sessionEvent'), type: event.type, processedAt: at, body: body as SessionEventBody };
    }),
  );
}

/**
 * Appends events to an EXISTING session's log in the caller's transaction, which must already
 * hold the session's row lock (taken before any other read of the transaction, so the log's end
 * read under it is the committed one) and passes the row it locked, as written since if it wrote
 * it: the next sequences after the log's end the row holds (insertAfter), the session's row
 * brought in line with them, and the `sessions.log_appended` notice in the outbox. Returns the
 * rows and the notice, which the caller hands to `eventsRecorded` after the commit so open
 * streams hear of them at once.
 */
export async function appendToSessionLog(
  tx: Executor,
  session: LockedSession,
  events: NewSessionEventBody[],
  at: Date,
): Promise<AppendedToLog> {
  return appendAfter(tx, session, events, session.lastSequence, at);
}

/**
 * The runtime's append, in the caller's transaction under the session's row lock: only while the
 * log still ends at `afterSequence` (what the runtime decided on), else 409 and nothing written;
 * a model response's usage is added to the session in the same transaction, so the log and the
 * spend never disagree. `callerDrives`: the appender goes on driving the session, so no notice
 * is recorded for the work queue (open streams hear of it on the live feed).
 */
export async function appendFencedToSessionLog(
  tx: Executor,
  session: LockedSession,
  append: { afterSequence: number; events: NewSessionEventBody[]; usage?: UsageDelta; callerDrives?: boolean },
  at: Date,
): Promise<AppendedToLog> {
  const fence = (end: number) => {
    if (end !== append.afterSequence) {
      throw conflict(`after_sequence: the log of session '${session.id}' ends at sequence ${end}, not ${append.afterSequence}`);
    }
  };
  // The row's end is the log's or behind it (insertAfter), so one that is not the runtime's is
  // confirmed against the log before the 409; one that is, the insert confirms. An append
  // without events (the bus never sends one) has no insert to confirm it.
  if (session.lastSequence !== append.afterSequence || append.events.length === 0) fence(await lastSequence(tx, session.id));
  return appendAfter(tx, session, append.events, append.afterSequence, at, { usage: append.usage, notify: !append.callerDrives, fence });
}

/**
 * The log's notice without an append: tells the runtime (and open streams, which find nothing
 * new) to look at a session whose state changed outside its log, as an archive does: the runtime
 * then stops the session's worker. Nothing for a session with an empty log (no turn, no worker).
 */
export async function recordSessionNotice(tx: Executor, session: LoggedSession, at: Date): Promise<void> {
  // The log's max, not the row's last_sequence: an archive is rare and off the turn's path, and a
  // session an older replica created during a rolling upgrade has its initial events in its log
  // but 0 on its row, which would skip the notice and leave its worker running.
  const last = await lastSequence(tx, session.id);
  if (last === 0) return;
  await recordEvents(tx, outbox, [logNotice(session, last, 0, at)]);
}

/**
 * An append to an existing session's log: its rows, and the `sessions.log_appended` notice it
 * recorded in the outbox, if it did (not for an appender that goes on driving the session).
 */
export interface AppendedToLog {
  rows: SessionEventRow[];
  notice?: EventEnvelope;
}

/** What an append may carry besides its events: a model response's usage, whether a notice goes to the work queue, the runtime's fence. */
interface AppendOptions {
  usage?: UsageDelta;
  notify?: boolean;
  fence?: (end: number) => void;
}

/**
 * An existing session's append after the log's end its row holds (`expected`): the rows where
 * the log really ends (insertAfter, `fence` as there), then what the session's row sums up of its
 * log (sessionRowAfter) in one UPDATE, then the notice when `notify`.
 */
async function appendAfter(
  tx: Executor,
  session: LockedSession,
  events: NewSessionEventBody[],
  expected: number,
  at: Date,
  { usage, notify = true, fence }: AppendOptions = {},
): Promise<AppendedToLog> {
  const { rows, after } = await insertAfter(tx, session.id, events, at, expected, fence);
  const appended = await summarizeAppend(tx, session, events, rows, after, at, { usage, notify });
  if (appended.notice) await recordEvents(tx, outbox, [appended.notice]);
  return appended;
}

/**
 * Appends to several sessions' logs at once (a batch of db/append-batch.ts), in the caller's
 * transaction under their rows' locks, each after the end its row holds (a runtime append only
 * when that is its fence; the caller checks): one INSERT for all their rows, each row's UPDATE,
 * one outbox INSERT for their notices. A log ahead of its row (an older replica's append) makes
 * the INSERT collide and throw; the caller then appends each alone.
 */
export async function appendRunsAtRowEnds(
  tx: Executor,
  appends: ReadonlyArray<{ session: LockedSession; events: NewSessionEventBody[]; usage?: UsageDelta; notify: boolean }>,
  at: Date,
): Promise<AppendedToLog[]> {
  const runs = appends.map((append) => ({ ...append, rows: logRows([{ sessionId: append.session.id, events: append.events, at, after: append.session.lastSequence }]) }));
  await insertLogRows(tx, runs.flatMap((run) => run.rows));
  const appended: AppendedToLog[] = [];
  for (const { session, events, rows, usage, notify } of runs) {
    appended.push(await summarizeAppend(tx, session, events, rows, session.lastSequence, at, { usage, notify }));
  }
  const notices = appended.flatMap(({ notice }) => (notice ? [notice] : []));
  if (notices.length > 0) await recordEvents(tx, outbox, notices);
  return appended;
}

/**
 * What follows an append's rows (logged after `after`): the session's row brought in line with
 * them (sessionRowAfter, one UPDATE), and the notice to record when `notify` (the caller records
 * it, alone or with a batch's).
 */
async function summarizeAppend(
  tx: Executor,
  session: LockedSession,
  events: NewSessionEventBody[],
  rows: SessionEventRow[],
  after: number,
  at: Date,
  { usage, notify = true }: Pick<AppendOptions, 'usage' | 'notify'>,
): Promise<AppendedToLog> {
  const change = sessionRowAfter(session, events, after + 1, at, usage);
  if (change) await writeLogSummary(tx, session.id, change);
  if (!notify) return { rows };
  return { rows, notice: logNotice(session, after + events.length, events.length, at, { revision: session.revision, rows }) };
}

/**
 * Inserts an append's rows after `expected`, the log's end as the session's row has it, and
 * returns them with the end they went after. The row is never ahead of the log, but behind it
 * while replicas older than its `last_sequence` still append (they do not move it): the insert
 * then collides on the log's primary key, and the log's end is read (only the failed statement
 * is rolled back; the transaction goes on under the same lock) and the rows go after it, unless
 * `fence` refuses that end (it throws). A collision while the log ends where the row says is on
 * another key (an event id already logged) and is thrown as it came.
 */
async function insertAfter(
  tx: Executor,
  sessionId: string,
  events: NewSessionEventBody[],
  at: Date,
  expected: number,
  fence?: (end: number) => void,
): Promise<{ rows: SessionEventRow[]; after: number }> {
  const rows = logRows([{ sessionId, events, at, after: expected }]);
  if (rows.length === 0) return { rows, after: expected };
  try {
    await insertLogRows(tx, rows);
    return { rows, after: expected };
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
    const end = await lastSequence(tx, sessionId);
    if (end <= expected) throw error;
    fence?.(end);
    const moved = logRows([{ sessionId, events, at, after: end }]);
    await insertLogRows(tx, moved);
    return { rows: moved, after: end };
  }
}

/**
 * `sessions.log_appended`: the session's log now ends at `sequence`, `appended` events of it added
 * by this append (0: none). An append's notice also carries the row's revision and, when small
 * enough, the events themselves (noticeEvents), so the runtime's drive need not read them.
 */
const logNotice = (session: LoggedSession, sequence: number, appended: number, at: Date, append?: { revision: number; rows: SessionEventRow[] }): EventEnvelope =>
  newEventEnvelope(
    sessionLogEvents.appended,
    tenantOfRow(session),
    { session_id: session.id, sequence, appended, ...(append ? { revision: append.revision, ...noticeEvents(append.rows) } : {}) },
    at,
  );

/**
 * What an existing session's row says of its log once `events` are appended at `at`
 * (`firstSequence`: the first one's), worked out from the row its appender locked (nothing can
 * change it before the commit, so it is not read again), to be written in one UPDATE; undefined
 * when nothing changes (no event and no usage). The log's new end whenever events are added (the
 * next append finds it on the row it locks); the status of the last status event (with
 * updated_at); the outcome evaluations the events move on (a define_outcome opens one, the
 * runtime's spans move it; domain/outcome-evaluations.ts); a model response's usage, added in the
 * same transaction as its events, so the log and the spend never disagree.
 */
function sessionRowAfter(
  session: LockedSession,
  events: readonly NewSessionEventBody[],
  firstSequence: number,
  at: Date,
  usage: UsageDelta | undefined,
): LogSummaryChange | undefined {
  const change: LogSummaryChange = {};
  if (events.length > 0) change.lastSequence = firstSequence + events.length - 1;
  const status = statusAfter(events);
  if (status) {
    change.status = status;
    change.updatedAt = at;
  }
  if (touchesOutcomes(events)) {
    const current = session.outcomeEvaluations ?? outcomeEvaluationsOf(session.id, session.initialEvents, 1);
    const next = advanceOutcomeEvaluations(current, session.id, events, firstSequence, at);
    if (JSON.stringify(next) !== JSON.stringify(current)) change.outcomeEvaluations = next;
  }
  if (usage) change.usage = addUsage(session.usage, usage);
  return Object.keys(change).length > 0 ? change : undefined;
}
