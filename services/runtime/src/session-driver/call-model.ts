import type { CallContext } from '@shared/bus/call-context';
import type { Session } from '@shared/schema/session';
import { newId } from '@shared/ids/ids';
import type { ListPrice } from '@shared/usage/list-cost';
import { AnswerPreviews } from '../domain/answer-previews';
import { NO_MODEL_CREDENTIALS, turnEndingError } from '../domain/model-errors';
import { mcpFailureEvents } from '../domain/mcp-tools';
import { buildModelRequest, modelTools } from '../domain/model-request';
import { withCacheBreakpoints } from '../domain/prompt-cache';
import { requestFailedEnd, responseEvents, tokenUsageOf, usageDelta } from '../domain/model-response';
import { promptTooLong } from '../domain/context-compaction';
import { mountedSections } from '../domain/system-prompt';
import type { LoggedEvent } from '../domain/session-log';
import type { RuntimeDeps } from '../deps';
import { compactContext, inContext, nearContextWindow } from './compact-context';
import { endInterruptedSpan, interruptibleRequest } from './interruptible-request';
import { listMcpTools } from './mcp-listing';
import { appendStep, openSpan, type LogCursor } from './session-log-writes';

/**
 * The agent's turn: a Messages API request built from the session's agent and log, recorded as
 * a span (`span.model_request_start` ... `_end` with usage) around the response's events, the
 * agent's MCP servers' tools listed first (session-driver/mcp-listing.ts). A
 * request begun and never recorded (`openStartId`: its replica died) is sent again under the
 * same start span, so its events are recorded once.
 */
export async function callModel(
  deps: RuntimeDeps,
  ctx: CallContext,
  turn: { session: Session; log: LoggedEvent[]; cursor: LogCursor; price: ListPrice | null; graded: boolean },
  openStartId: string | undefined,
): Promise<boolean> {
  const { session, log, cursor, price } = turn;
  if (!deps.model.configured) return appendStep(deps, ctx, cursor, turnEndingError(NO_MODEL_CREDENTIALS));
  const startId = await openSpan(deps, ctx, cursor, session, { type: 'span.model_request_start' }, openStartId);
  if (!startId) return true;
  const { tools, permissions } = modelTools(session.agent, deps.toolset);
  const mcp = await listMcpTools(deps, ctx, session, new Set(tools.map((t) => t.name)));
  if (mcp.kind === 'failed') return appendStep(deps, ctx, cursor, [requestFailedEnd(startId), ...mcpFailureEvents(mcp.failure)]);
  const mounted = mountedSections(session.resources, await deps.skills.of(ctx, session.agent.skills));
  const request = withCacheBreakpoints(
    await inContext(deps, ctx, session, log, (events) => buildModelRequest(session.agent, events, [...tools, ...mcp.tools], deps.config.MODEL_MAX_TOKENS, mounted)),
  );
  // A conversation near the model's context window is summarized first, under this span (compact-context.ts).
  if (await nearContextWindow(deps, ctx, session, log)) return compactContext(deps, ctx, turn, startId, request, 'near_window');
  // Streamed: streams that asked for previews (`event_deltas`) see the answer while it is written.
  const previews = new AnswerPreviews(session.id, () => newId('sessionEvent'), (preview) => deps.previews.publish(preview));
  const { answer, interrupted } = await interruptibleRequest(deps, ctx, cursor, request, (event) => previews.hear(event)).finally(() => {
    // Fragments still gathered go before the buffered event that concludes them (streams drop previews after it).
    previews.close();
  });
  switch (answer.kind) {
    case 'given_up': {
      // An interrupt stopped the request: its span ends now. Else the log moved on while the
      // request was retried: the session is read again.
      if (interrupted) await endInterruptedSpan(deps, ctx, cursor, startId, interrupted, price);
      return true;
    }
    case 'answered': {
      const events = responseEvents(answer.message, startId, permissions, {
        graded: turn.graded,
        mcp: mcp.routes,
        previewedIds: (index) => previews.idOf(index),
      });
      return appendStep(deps, ctx, cursor, events, usageDelta(tokenUsageOf(answer.message), price));
    }
    case 'failed':
      if (promptTooLong(answer.failure)) return compactContext(deps, ctx, turn, startId, request, 'too_long');
      return appendStep(deps, ctx, cursor, [requestFailedEnd(startId), ...turnEndingError(answer.failure)]);
  }
}
