import type { MessageCreateParamsNonStreaming, Message } from '@anthropic-ai/sdk/resources/messages';
import type { CallContext } from '@shared/bus/call-context';
import { ApiError } from '@shared/errors/api-error';
import type { Session } from '@shared/schema/session';
import type { RuntimeEventBody, UsageDelta } from '@shared/schema/session-event';
import { classifyModelFailure, type ModelFailure } from '../domain/model-errors';
import type { RuntimeDeps } from '../deps';

/**
 * How a step writes to a session's log and asks the model, shared by the agent's turns
 * (call-model.ts) and the outcome's grading (evaluate-outcome.ts). Every append is fenced on
 * the log's end: a 409 means the log moved on (a client's send, another replica), and the step
 * ends so the session is read again; nothing is ever written twice.
 */

/** Where the step's next append is fenced: the log's last sequence as this step last wrote it. */
export interface LogCursor {
  sessionId: string;
  after: number;
}

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
    const appended = await deps.sessions.append(ctx, { session_id: cursor.sessionId, after_sequence: cursor.after, events, ...(usage ? { usage } : {}) });
    cursor.after = appended.last;
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

export type ModelOutcome =
  | { kind: 'answered'; message: Message }
  | { kind: 'failed'; failure: ModelFailure }
  /** The log moved on while retrying: the step ends and the session is read again. */
  | { kind: 'moved' };

/**
 * One model request with the runtime's bounded retries: a retryable failure is announced in the
 * session (`session.error` retrying, `session.status_rescheduled`) before the wait, and
 * `session.status_running` after it, so a client always sees why nothing happens.
 */
export async function requestModel(deps: RuntimeDeps, ctx: CallContext, cursor: LogCursor, request: MessageCreateParamsNonStreaming): Promise<ModelOutcome> {
  for (let attempt = 0; ; attempt++) {
    try {
      // MODEL_TIMEOUT_MS bounds the request in the client; this signal only satisfies the SDK's signature.
      return { kind: 'answered', message: await deps.model.create(request, AbortSignal.timeout(24 * 3600_000)) };
    } catch (err) {
      const failure = classifyModelFailure(err);
      deps.logger.warn('model request failed', { session_id: cursor.sessionId, attempt, type: failure.type, retryable: failure.retryable });
      if (!failure.retryable || attempt >= deps.config.MODEL_MAX_RETRIES) {
        return { kind: 'failed', failure };
      }
      const retrying: RuntimeEventBody[] = [
        { type: 'session.error', error: { type: failure.type, message: failure.message, retry_status: { type: 'retrying' } } },
        { type: 'session.status_rescheduled' },
      ];
      if (!(await appendAt(deps, ctx, cursor, retrying))) return { kind: 'moved' };
      await deps.sleep(deps.config.MODEL_RETRY_BASE_MS * 2 ** attempt);
      if (!(await appendAt(deps, ctx, cursor, [{ type: 'session.status_running' }]).catch(() => undefined))) return { kind: 'moved' };
    }
  }
}
