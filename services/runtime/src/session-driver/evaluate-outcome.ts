import type { CallContext } from '@shared/bus/call-context';
import type { Session } from '@shared/schema/session';
import type { RuntimeEventBody } from '@shared/schema/session-event';
import type { ListPrice } from '@shared/usage/list-cost';
import { NO_MODEL_CREDENTIALS, turnEndingError } from '../domain/model-errors';
import { tokenUsageOf, usageDelta } from '../domain/model-response';
import { buildGradingRequest, evaluationEndEvents, readVerdict } from '../domain/outcome-grading';
import type { LoggedEvent, OutcomeState } from '../domain/session-log';
import type { RuntimeDeps } from '../deps';
import { appendAt, appendStep, openSpan, requestModel, type LogCursor } from './session-log-writes';

/** How often `span.outcome_evaluation_ongoing` says a grading is still under way. */
const ONGOING_EVERY_MS = 15_000;

/**
 * One cycle of an outcome's evaluate-and-revise loop: a span (`span.outcome_evaluation_start`
 * ... `_end`) around a grader request on the agent's model (domain/outcome-grading.ts), with an
 * `ongoing` heartbeat while it is out. The verdict either ends the outcome (and the session
 * rests) or hands the agent the grader's feedback for another turn. A cycle begun and never
 * recorded (`openStartId`) is graded again under the same start span.
 */
export async function evaluateOutcome(
  deps: RuntimeDeps,
  ctx: CallContext,
  turn: { session: Session; log: LoggedEvent[]; cursor: LogCursor; price: ListPrice | null },
  outcome: OutcomeState,
  openStartId: string | undefined,
): Promise<boolean> {
  const { session, log, cursor, price } = turn;
  if (!deps.model.configured) return appendStep(deps, ctx, cursor, turnEndingError(NO_MODEL_CREDENTIALS));
  const start: RuntimeEventBody = { type: 'span.outcome_evaluation_start', outcome_id: outcome.outcomeId, iteration: outcome.iteration };
  const startId = await openSpan(deps, ctx, cursor, session, start, openStartId);
  if (!startId) return true;
  const rubric = await deps.rubrics.textOf(ctx, outcome.rubric);
  const request = buildGradingRequest(session.agent, log, outcome, rubric, deps.config.MODEL_MAX_TOKENS);
  const answer = await whileOngoing(deps, ctx, cursor, outcome, () => requestModel(deps, ctx, cursor, request));
  switch (answer.kind) {
    case 'given_up':
      // The log moved on while the request was retried: the session is read again.
      return true;
    case 'answered': {
      const tokens = tokenUsageOf(answer.message);
      const events = evaluationEndEvents(outcome, startId, readVerdict(answer.message, outcome), tokens);
      return appendStep(deps, ctx, cursor, events, usageDelta(tokens, price));
    }
    case 'failed': {
      // A grader that cannot be asked ends the outcome: an open evaluation would be retried at every notice.
      const verdict = { result: 'failed' as const, explanation: `The outcome could not be evaluated: ${answer.failure.message}` };
      const none = { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_5m_input_tokens: 0, cache_creation_1h_input_tokens: 0 };
      const [end] = evaluationEndEvents(outcome, startId, verdict, none);
      return appendStep(deps, ctx, cursor, [end, ...turnEndingError(answer.failure)]);
    }
  }
}

/**
 * Runs `work` while appending `span.outcome_evaluation_ongoing` every ONGOING_EVERY_MS at the
 * cursor (which `work` appends at too: the heartbeats are chained, and the last one lands
 * before `work`'s result is returned, so the cursor is never raced).
 */
async function whileOngoing<T>(deps: RuntimeDeps, ctx: CallContext, cursor: LogCursor, outcome: OutcomeState, work: () => Promise<T>): Promise<T> {
  let beats = Promise.resolve();
  const ongoing: RuntimeEventBody = { type: 'span.outcome_evaluation_ongoing', outcome_id: outcome.outcomeId, iteration: outcome.iteration };
  const timer = setInterval(() => {
    beats = beats.then(() => appendAt(deps, ctx, cursor, [ongoing]).then(() => undefined, () => undefined));
  }, ONGOING_EVERY_MS);
  try {
    return await work();
  } finally {
    clearInterval(timer);
    await beats;
  }
}
