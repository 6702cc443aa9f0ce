import type { CallContext } from '@shared/bus/call-context';
import type { Session } from '@shared/schema/session';
import type { RuntimeEventBody } from '@shared/schema/session-event';
import { newId } from '@shared/ids/ids';
import type { ListPrice } from '@shared/usage/list-cost';
import { AnswerPreviews } from '../domain/answer-previews';
import { NO_MODEL_CREDENTIALS, turnEndingError } from '../domain/model-errors';
import { mcpFailureEvents } from '../domain/mcp-tools';
import { buildModelRequest, modelTools } from '../domain/model-request';
import { withCacheBreakpoints } from '../domain/prompt-cache';
import { responseEvents, tokenUsageOf, usageDelta } from '../domain/model-response';
import { mountedSections } from '../domain/system-prompt';
import type { LoggedEvent } from '../domain/session-log';
import type { RuntimeDeps } from '../deps';
import { listMcpTools } from './mcp-listing';
import { appendStep, openSpan, requestModel, type LogCursor } from './session-log-writes';

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
  const request = withCacheBreakpoints(buildModelRequest(session.agent, log, [...tools, ...mcp.tools], deps.config.MODEL_MAX_TOKENS, mounted));
  // Streamed: streams that asked for previews (`event_deltas`) see the answer while it is written.
  const previews = new AnswerPreviews(session.id, () => newId('sessionEvent'), (preview) => deps.previews.publish(preview));
  const answer = await requestModel(deps, ctx, cursor, request, (event) => previews.hear(event));
  switch (answer.kind) {
    case 'given_up':
      // The log moved on while the request was retried: the session is read again.
      return true;
    case 'answered': {
      const events = responseEvents(answer.message, startId, permissions, {
        graded: turn.graded,
        mcp: mcp.routes,
        previewedIds: (index) => previews.idOf(index),
      });
      return appendStep(deps, ctx, cursor, events, usageDelta(tokenUsageOf(answer.message), price));
    }
    case 'failed':
      return appendStep(deps, ctx, cursor, [requestFailedEnd(startId), ...turnEndingError(answer.failure)]);
  }
}

/** The request's span closed as failed (no tokens spent). */
const requestFailedEnd = (startId: string): RuntimeEventBody => ({
  type: 'span.model_request_end',
  is_error: true,
  model_request_start_id: startId,
  model_usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
});
