import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { ReplyOf, RequestOf } from '@shared/bus/subject';
import type { sessionEventSubjects } from '@shared/bus/subjects/session-events';
import { found, invalidRequest } from '@shared/errors/api-error';
import { lastSequence, readEventsAfter, sequenceOf } from '../db/session-events';
import { findSession } from '../db/sessions';
import { sessionNotFound } from '../domain/not-found';
import { presentSession } from '../domain/present';
import { presentSessionEvent } from '../domain/session-events';
import type { DeploymentsDeps } from '../deps';

type Follow = typeof sessionEventSubjects.follow;

/**
 * What a stream delivers next: the session's events after a sequence (or after the event a
 * client last saw, its `Last-Event-ID`), in order, and the log's last sequence. Read without a
 * lock: sequences are given under the session's row lock, so two appends to one session commit
 * one after the other and every read sees a prefix of the log, never a later sequence without
 * the earlier ones. The session's row is read first in any case (missing or another tenant's:
 * 404); `with_session` (the runtime's step) has that row presented as `sessions.get` does, so
 * the runtime's step is one request and two statements instead of two requests and three.
 */
export const followSessionEvents =
  (deps: DeploymentsDeps): Handler<Follow> =>
  async ({ session_id, after, limit, with_session }, ctx) => {
    const row = found(await findSession(deps.db, tenantOf(ctx), session_id), () => sessionNotFound(session_id));
    const run = await readLogFrom(deps, session_id, after, limit);
    return with_session ? { ...run, session: presentSession(row, await deps.agents.ofSession(ctx, row)), revision: row.revision } : run;
  };

/** The log after `after` (a sequence, an event id, or null: the log's end), and its last sequence. */
async function readLogFrom(
  deps: DeploymentsDeps,
  session_id: string,
  after: RequestOf<Follow>['after'],
  limit: number,
): Promise<ReplyOf<Follow>> {
  if (after !== null && 'sequence' in after) {
    // The common read (a stream, the runtime, going on from what they hold): the log's end is
    // the last event read when the read reached it, and is asked only when more follow.
    const run = await readEventsAfter(deps.db, session_id, after.sequence, limit);
    const end = run.rows.at(-1)?.sequence ?? after.sequence;
    return {
      events: run.rows.map((row) => ({ sequence: row.sequence, event: presentSessionEvent(row) })),
      from: after.sequence,
      last: run.more ? Math.max(end, await lastSequence(deps.db, session_id)) : end,
    };
  }
  // Read the end first: events appended after it are found by the next read (a notification says so).
  const last = await lastSequence(deps.db, session_id);
  const from =
    after === null
      ? last
      : found(await sequenceOf(deps.db, session_id, after.event_id), () =>
          invalidRequest(`Last-Event-ID: no event ${JSON.stringify(after.event_id.slice(0, 128))} in session '${session_id}'`),
        );
  const rows = from >= last ? [] : (await readEventsAfter(deps.db, session_id, from, limit)).rows;
  return {
    events: rows.map((row) => ({ sequence: row.sequence, event: presentSessionEvent(row) })),
    from,
    // Statements see the log as it was at each: a later one may have seen more than `last`.
    last: Math.max(last, from, rows.at(-1)?.sequence ?? 0),
  };
}
