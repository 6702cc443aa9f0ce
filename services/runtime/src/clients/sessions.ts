import type { BusClient } from '@shared/bus/bus-client';
import type { CallContext } from '@shared/bus/call-context';
import type { ReplyOf, RequestOf } from '@shared/bus/subject';
import { sessionEventSubjects } from '@shared/bus/subjects/session-events';
import { sessionResourceSubjects, sessionSubjects } from '@shared/bus/subjects/sessions';
import { ApiError } from '@shared/errors/api-error';
import type { SessionMounts } from '@shared/schema/sandbox-policy';
import type { Session } from '@shared/schema/session';
import type { LoggedEvent } from '../domain/session-log';

/** What the runtime asks of the deployments service, which owns sessions and their logs. */
export interface SessionsClient {
  get(ctx: CallContext, sessionId: string): Promise<Session>;
  /** The log after sequence `after` (0: all of it), in order, read in pages of the follow subject. */
  readLog(ctx: CallContext, sessionId: string, after?: number): Promise<LoggedEvent[]>;
  /** The session and its log after `after`, as get and readLog give them, the session with the log's first page (a drive's step). */
  /** The session (with its row's revision; none from an older deployments replica) and its log after `after`. */
  readWithLog(ctx: CallContext, sessionId: string, after: number): Promise<{ session: Session; revision?: number; log: LoggedEvent[] }>;
  /** What the session mounts, its repository tokens opened (for a cloud item's claim only). */
  mounts(ctx: CallContext, sessionId: string): Promise<SessionMounts>;
  append(ctx: CallContext, request: RequestOf<typeof sessionEventSubjects.append>): Promise<ReplyOf<typeof sessionEventSubjects.append>>;
}

const LOG_PAGE = 1000;

/** A 400 naming `field` (an older replica's closed schema refusing a field it does not know). */
const refusedField = (err: unknown, field: string) =>
  err instanceof ApiError && err.type === 'invalid_request_error' && err.message.startsWith(`${field}:`);

export function sessionsClient(bus: Pick<BusClient, 'call'>): SessionsClient {
  /** The log after `after` in pages, the first of them asked `with_session`: its reply's session. */
  async function follow(ctx: CallContext, sessionId: string, after: number, withSession: boolean) {
    const log: LoggedEvent[] = [];
    let session: Session | undefined;
    let revision: number | undefined;
    for (;;) {
      const page = await bus.call(sessionEventSubjects.follow, ctx, {
        session_id: sessionId,
        after: { sequence: log.at(-1)?.sequence ?? after },
        limit: LOG_PAGE,
        ...(withSession && !session ? { with_session: true } : {}),
      });
      if (!session) ({ session, revision } = page);
      // The reply was validated against the follow schema; its events' precise kinds are SessionEvent's (see LoggedEvent).
      log.push(...(page.events as LoggedEvent[]));
      if (page.events.length === 0 || (log.at(-1)?.sequence ?? after) >= page.last) return { session, revision, log };
    }
  }
  return {
    get: (ctx, sessionId) => bus.call(sessionSubjects.get, ctx, { session_id: sessionId }),
    readLog: async (ctx, sessionId, after = 0) => (await follow(ctx, sessionId, after, false)).log,
    async readWithLog(ctx, sessionId, after) {
      const read = await follow(ctx, sessionId, after, true).catch((err: unknown) => {
        // A deployments replica older than `with_session` refuses it (400) while a rolling upgrade
        // runs: the two are asked apart, as they were. A request bad for another reason fails again there.
        if (err instanceof ApiError && err.type === 'invalid_request_error') return undefined;
        throw err;
      });
      if (!read) {
        const [session, log] = await Promise.all([bus.call(sessionSubjects.get, ctx, { session_id: sessionId }), follow(ctx, sessionId, after, false)]);
        return { session, log: log.log };
      }
      if (!read.session) throw new Error(`the follow read of session ${sessionId} came without the session it was asked for`);
      return { session: read.session, revision: read.revision, log: read.log };
    },
    mounts: (ctx, sessionId) => bus.call(sessionResourceSubjects.resolve, ctx, { session_id: sessionId }),
    append: (ctx, request) =>
      bus.call(sessionEventSubjects.append, ctx, request).catch((err: unknown) => {
        // A deployments replica older than `caller_drives` refuses it, naming it, while a rolling
        // upgrade runs: the append is made as it was, its notice acked as the drive's own.
        if (request.caller_drives === undefined || !refusedField(err, 'caller_drives')) throw err;
        const { caller_drives: _older, ...asBefore } = request;
        return bus.call(sessionEventSubjects.append, ctx, asBefore);
      }),
  };
}
