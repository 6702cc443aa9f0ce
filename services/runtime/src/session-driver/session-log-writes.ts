import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import { systemContext, type CallContext } from '@shared/bus/call-context';
import type { ReplyOf } from '@shared/bus/subject';
import type { sessionEventSubjects } from '@shared/bus/subjects/session-events';
import { ApiError } from '@shared/errors/api-error';
import type { Session } from '@shared/schema/session';
import type { TenantIds } from '@shared/schema/tenant';
import type { RuntimeEventBody, UsageDelta } from '@shared/schema/session-event';
import { requestWithRetries, type ModelOutcome, type RequestStream } from '../clients/model-api';
import { retryingEvents } from '../domain/model-errors';
import { readLogState, type LogState } from '../domain/session-log';
import type { RuntimeDeps } from '../deps';

/**
 * How a step writes to a session's log, a model request's retries announced in it included,
 * shared by the agent's turns (call-model.ts) and the outcome's grading (evaluate-outcome.ts). Every append is fenced on
 * the log's end: a 409 means the log moved on (a client's send, another replica), and the step
 * ends so the session is read again; nothing is ever written twice.
 */

/** Where the step's next append is fenced: the log's last sequence as this step last wrote it. */
export interface LogCursor {
  sessionId: string;
  after: number;
  /**
   * Told of each append made at it before it is sent (the log's last sequence if it lands, how
   * many events), so its notice, which may come before its reply, is known as the drive's own.
   */
  appending?: (last: number, count: number) => void;
  /** Told of each append made at it that landed: what it added (the drive's own, see drive-loop.ts). */
  landed?: (run: AppendedRun) => void;
}

/** What one append added: its events with their sequences, after `from`, up to `last`. */
export type AppendedRun = ReplyOf<typeof sessionEventSubjects.append>;

const isMoved = (err: unknown) => err instanceof ApiError && err.status === 409;

/** Appends at the cursor and moves it; undefined when the log had moved on (the caller reads it again). */
export async function appendAt(
  deps: RuntimeDeps,
  ctx: CallContext,
  cursor: LogCursor,
  events: RuntimeEventBody[],
  usage?: UsageDelta,
): Promise<string[] | undefined> {
  try {
    cursor.appending?.(cursor.after + events.length, events.length);
    // A drive's cursor (it is told of its appends) goes on from the reply: no work-queue notice.
    const drives = cursor.appending ? { caller_drives: true } : {};
    const appended = await deps.sessions.append(ctx, { session_id: cursor.sessionId, after_sequence: cursor.after, events, ...(usage ? { usage } : {}), ...drives });
    cursor.after = appended.last;
    cursor.landed?.(appended);
    return appended.events.map(({ event }) => (event as { id: string }).id);
  } catch (err) {
    if (isMoved(err)) return undefined;
    throw err;
  }
}

/** An append as a whole step: true, so the driver reads the session again, whether it landed or the log had moved. */
export async function appendStep(deps: RuntimeDeps, ctx: CallContext, cursor: LogCursor, events: RuntimeEventBody[], usage?: UsageDelta): Promise<boolean> {
  await appendAt(deps, ctx, cursor, events, usage);
  return true;
}

/**
 * The span a model request (or a grading) is recorded under: `openStartId` when one was begun and
 * never ended (its replica died: the request is sent again under it), else a new start appended,
 * with `session.status_running` first when the session was not running. Undefined when the log
 * moved on meanwhile (the step ends and the session is read again).
 */
export async function openSpan(
  deps: RuntimeDeps,
  ctx: CallContext,
  cursor: LogCursor,
  session: Pick<Session, 'status'>,
  start: RuntimeEventBody,
  openStartId: string | undefined,
): Promise<string | undefined> {
  if (openStartId) return openStartId;
  const opening: RuntimeEventBody[] = session.status === 'running' ? [start] : [{ type: 'session.status_running' }, start];
  return (await appendAt(deps, ctx, cursor, opening))?.at(-1);
}

/**
 * A model request (clients/model-api.ts, with the runtime's retries) whose retries the session's
 * log announces: `session.error` retrying and `session.status_rescheduled` before the wait,
 * `session.status_running` after it. The announcements are this module's, so the log keeps one
 * writer; a log that moved on meanwhile gives the request up (the step ends). `stream` hears
 * the answer as it streams (the agent's turns preview it) and may stop it (an interrupt).
 */
export function requestModel(
  deps: RuntimeDeps,
  ctx: CallContext,
  cursor: LogCursor,
  request: MessageCreateParamsNonStreaming,
  stream?: RequestStream,
): Promise<ModelOutcome> {
  const policy = {
    maxRetries: deps.config.MODEL_MAX_RETRIES,
    retryBaseMs: deps.config.MODEL_RETRY_BASE_MS,
    sleep: deps.sleep,
    logger: deps.logger.child({ session_id: cursor.sessionId }),
  };
  return requestWithRetries(deps.model, request, policy, {
    beforeWait: async (failure) => (await appendAt(deps, ctx, cursor, retryingEvents(failure))) !== undefined,
    // A failed resumption is as good as a moved log: the step ends and the session is read again.
    afterWait: async () => (await appendAt(deps, ctx, cursor, [{ type: 'session.status_running' }]).catch(() => undefined)) !== undefined,
  }, stream);
}

/** Appends are fenced on the log's end; a log moving this often is being answered by someone else anyway. */
const ATTEMPTS = 3;

/**
 * Appends what `build` makes of the session's log at the log's end, read and appended again when
 * a client's send or the driver's own step got in between (appends are fenced on the log's end);
 * nothing when `build` has nothing (or the session is gone). The append's own notice brings the
 * driver, which goes on from there.
 */
export async function appendAtLogEnd(deps: RuntimeDeps, tenant: TenantIds, sessionId: string, requestId: string, build: (state: LogState) => RuntimeEventBody[] | undefined): Promise<void> {
  const ctx = systemContext(requestId, { ...tenant, scope: 'read_write', key_id: 'runtime' });
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const log = await deps.sessions.readLog(ctx, sessionId).catch((err: unknown) => {
      // A deleted session takes nothing more.
      if (err instanceof ApiError && err.type === 'not_found_error') return undefined;
      throw err;
    });
    if (!log) return;
    const state = readLogState(log);
    const events = build(state);
    if (!events) return;
    if (await appendAt(deps, ctx, { sessionId, after: state.last }, events)) return;
  }
}
