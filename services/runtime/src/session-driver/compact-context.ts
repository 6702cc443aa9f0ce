import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import { tenantOf, type CallContext } from '@shared/bus/call-context';
import type { Session } from '@shared/schema/session';
import type { ListPrice } from '@shared/usage/list-cost';
import { findContextSummary, forgetOtherSummaries, saveContextSummary, type SummarySpan } from '../db/context-summaries';
import {
  compactionLimitEvents,
  compactionLimitReached,
  CONTEXT_WINDOW_FALLBACK,
  contextNearlyFull,
  eventsInContext,
  lastCompaction,
  noSummaryEvents,
  promptTooLong,
  summaryRequest,
  summaryText,
  transcriptSummaryRequest,
  withSummary,
} from '../domain/context-compaction';
import { turnEndingError } from '../domain/model-errors';
import { requestEnd, requestFailedEnd, tokenUsageOf, usageDelta } from '../domain/model-response';
import { transcriptOf } from '../domain/outcome-grading';
import { readLogState, type LoggedEvent } from '../domain/session-log';
import type { RuntimeDeps } from '../deps';
import { endInterruptedSpan, interruptibleRequest } from './interruptible-request';
import { appendAt, appendStep, type LogCursor } from './session-log-writes';

/**
 * Long sessions (domain/context-compaction.ts): a turn that finds its conversation near the
 * model's context window, or that the model refuses as too long, has the model summarize it
 * instead, under the turn's own span; the turns after send the summary and what followed it.
 */

const windowOf = async (deps: RuntimeDeps, ctx: CallContext, session: Session) =>
  (await deps.prices.contextWindow(ctx, session.agent.model.id)) ?? CONTEXT_WINDOW_FALLBACK;

/** Whether the turn about to be sent should compact the conversation first. */
export async function nearContextWindow(deps: RuntimeDeps, ctx: CallContext, session: Session, log: readonly LoggedEvent[]): Promise<boolean> {
  return contextNearlyFull(log, await windowOf(deps, ctx, session), deps.config.RUNTIME_COMPACTION_THRESHOLD);
}

/** The conversation since the last compaction and that compaction's summary (none before the first). */
async function conversationOf(
  deps: RuntimeDeps,
  ctx: CallContext,
  session: Session,
  log: readonly LoggedEvent[],
): Promise<{ events: LoggedEvent[]; summary: string | undefined }> {
  const compaction = lastCompaction(log);
  const events = eventsInContext(log, compaction);
  if (!compaction) return { events, summary: undefined };
  const at: SummarySpan = { owner: tenantOf(ctx), sessionId: session.id, spanStartId: compaction.startId };
  // Written before its compaction was recorded, so missing only if the database lost it: said so, rather than a turn that cannot run.
  const summary = (await findContextSummary(deps.db, at)) ?? '(The summary of the earlier conversation was lost.)';
  return { events, summary };
}

/** The turn's request as `build` makes it from the events in context, the summary of the ones before first. */
export async function inContext(
  deps: RuntimeDeps,
  ctx: CallContext,
  session: Session,
  log: readonly LoggedEvent[],
  build: (events: LoggedEvent[]) => MessageCreateParamsNonStreaming,
): Promise<MessageCreateParamsNonStreaming> {
  const { events, summary } = await conversationOf(deps, ctx, session, log);
  return withSummary(build(events), summary);
}

/**
 * The summary turn, under the span `startId` the agent's turn opened: the model summarizes the
 * conversation (`turnRequest`, as the turn would have sent it, which reads the prefix the earlier
 * turns cached; a plain transcript, bounded to the window, when the model found even that too
 * long), the summary is kept (db/context-summaries.ts), and `agent.thread_context_compacted` and
 * the span's end with the summary's usage are appended, which the session's usage and budget
 * count. The turn itself follows as the next step. Past the SDK's limit of compactions in a row,
 * the turn ends with compaction_limit_reached_error instead.
 */
export async function compactContext(
  deps: RuntimeDeps,
  ctx: CallContext,
  turn: { session: Session; log: LoggedEvent[]; cursor: LogCursor; price: ListPrice | null },
  startId: string,
  turnRequest: MessageCreateParamsNonStreaming,
  reason: 'near_window' | 'too_long',
): Promise<boolean> {
  const { session, log, cursor, price } = turn;
  if (compactionLimitReached(readLogState(log))) return appendStep(deps, ctx, cursor, [requestFailedEnd(startId), ...compactionLimitEvents()]);
  // Stopped by an interrupt as the turn's own request is: the turn is over, the summary no use.
  const first = reason === 'near_window' ? await interruptibleRequest(deps, ctx, cursor, summaryRequest(turnRequest)) : undefined;
  const { answer, interrupted } =
    first && (first.interrupted || !(first.answer.kind === 'failed' && promptTooLong(first.answer.failure)))
      ? first
      : await interruptibleRequest(deps, ctx, cursor, await transcriptRequest(deps, ctx, session, log, turnRequest.max_tokens));
  switch (answer.kind) {
    case 'given_up':
      if (interrupted) await endInterruptedSpan(deps, ctx, cursor, startId, interrupted, price);
      return true;
    case 'failed':
      return appendStep(deps, ctx, cursor, [requestFailedEnd(startId), ...turnEndingError(answer.failure)]);
    case 'answered': {
      const tokens = tokenUsageOf(answer.message);
      const usage = usageDelta(tokens, price);
      const summary = summaryText(answer.message);
      if (summary === undefined) return appendStep(deps, ctx, cursor, [requestEnd(startId, tokens, true), ...noSummaryEvents()], usage);
      const at: SummarySpan = { owner: tenantOf(ctx), sessionId: session.id, spanStartId: startId };
      await saveContextSummary(deps.db, at, summary, deps.clock.now());
      // The compaction inside the span it was made in: the log's reading (domain/session-log.ts) then owes the turn still.
      const recorded = await appendAt(deps, ctx, cursor, [{ type: 'agent.thread_context_compacted' }, requestEnd(startId, tokens)], usage);
      if (recorded) await forgetOtherSummaries(deps.db, at);
      return true;
    }
  }
}

/**
 * The summary request of a conversation too long for the model: the earlier summary and a
 * transcript of what followed it, at most one character per token of the window less room for
 * the earlier summary and the answer (a token is about four characters of English: ample room).
 */
async function transcriptRequest(deps: RuntimeDeps, ctx: CallContext, session: Session, log: readonly LoggedEvent[], maxTokens: number) {
  const { events, summary } = await conversationOf(deps, ctx, session, log);
  const chars = Math.max(10_000, (await windowOf(deps, ctx, session)) - 2 * maxTokens);
  return transcriptSummaryRequest(session.agent.model.id, maxTokens, summary, transcriptOf(events, chars));
}
