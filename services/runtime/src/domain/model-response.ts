import type { Message } from '@anthropic-ai/sdk/resources/messages';
import type { RuntimeEventBody, UsageDelta } from '@shared/schema/session-event';
import { listCostUnits, type ListPrice, type TokenUsage } from '@shared/usage/list-cost';
import type { McpToolRoute } from './mcp-tools';
import type { LoggedEvent } from './session-log';

/** A model response's token counts. Cache writes are priced at the 5-minute rate: the runtime asks for no longer caching. */
export function tokenUsageOf(message: Pick<Message, 'usage'>): TokenUsage {
  const u = message.usage;
  return {
    input_tokens: u.input_tokens ?? 0,
    output_tokens: u.output_tokens ?? 0,
    cache_read_input_tokens: u.cache_read_input_tokens ?? 0,
    cache_creation_5m_input_tokens: u.cache_creation_input_tokens ?? 0,
    cache_creation_1h_input_tokens: 0,
  };
}

/** What a response adds to the session's usage; a model without a list price costs nothing to track. */
export function usageDelta(tokens: TokenUsage, price: ListPrice | null): UsageDelta {
  return { ...tokens, list_cost_units: (price ? listCostUnits(tokens, price) : 0n).toString() };
}

/** A model request's span closed with the tokens its response spent (none when it failed). */
export function requestEnd(startId: string, tokens: TokenUsage, isError = false): RuntimeEventBody {
  return {
    type: 'span.model_request_end',
    is_error: isError,
    model_request_start_id: startId,
    model_usage: {
      input_tokens: tokens.input_tokens,
      output_tokens: tokens.output_tokens,
      cache_read_input_tokens: tokens.cache_read_input_tokens,
      cache_creation_input_tokens: tokens.cache_creation_5m_input_tokens,
    },
  };
}

const NO_TOKENS: TokenUsage = {
  input_tokens: 0,
  output_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation_5m_input_tokens: 0,
  cache_creation_1h_input_tokens: 0,
};

/** The request's span closed as failed (no tokens spent). */
export const requestFailedEnd = (startId: string): RuntimeEventBody => requestEnd(startId, NO_TOKENS, true);

/**
 * A model response as the session's events, in the response's order: text as agent.message,
 * thinking as agent.thinking, tool calls as agent.tool_use (a tool of the agent toolset, with
 * its permission), agent.mcp_tool_use (an MCP server's, `options.mcp`) or agent.custom_tool_use, then the request's end span with its usage, then
 * the status its stop reason means (`graded`: the session has an outcome being worked on). A response that asks for tools leaves the session running:
 * the next step (domain/next-step.ts) sees the open calls and waits for a worker or the client.
 */
export function responseEvents(
  message: Message,
  startId: string,
  permissions: ReadonlyMap<string, 'allow' | 'ask'>,
  options: { graded: boolean; mcp?: ReadonlyMap<string, McpToolRoute>; previewedIds?: (blockIndex: number) => string | undefined },
): RuntimeEventBody[] {
  const events: RuntimeEventBody[] = [];
  for (const [index, block] of message.content.entries()) {
    // A block previewed while it streamed is recorded under the id its previews announced.
    const previewed = options.previewedIds?.(index);
    const id = previewed ? { id: previewed } : {};
    if (block.type === 'text') events.push({ type: 'agent.message', content: [{ type: 'text', text: block.text }], ...id });
    else if (block.type === 'thinking' || block.type === 'redacted_thinking') events.push({ type: 'agent.thinking', ...id });
    else if (block.type === 'tool_use') {
      const permission = permissions.get(block.name);
      const input = (block.input ?? {}) as Record<string, unknown>;
      const mcp = options.mcp?.get(block.name);
      if (mcp) {
        events.push({ type: 'agent.mcp_tool_use', name: block.name, mcp_server_name: mcp.server, input, evaluated_permission: mcp.permission });
        continue;
      }
      events.push(
        permission
          ? { type: 'agent.tool_use', name: block.name, input, evaluated_permission: permission }
          : { type: 'agent.custom_tool_use', name: block.name, input },
      );
    }
  }
  events.push(requestEnd(startId, tokenUsageOf(message)));
  if (message.stop_reason === 'refusal') events.push({ type: 'session.status_idle', stop_reason: { type: 'refusal' }, stop_details: null });
  // With an outcome to meet, the end of the turn is the grader's to judge (domain/next-step.ts), not yet idle.
  else if (message.stop_reason !== 'tool_use' && !options.graded) {
    events.push({ type: 'session.status_idle', stop_reason: { type: 'end_turn' }, stop_details: null });
  }
  return events;
}

/**
 * The session's spend so far, from its log: every recorded model response's tokens, and every
 * outcome evaluation's grader tokens, at the model's list price.
 */
export function spentUnits(log: readonly LoggedEvent[], price: ListPrice | null): bigint {
  if (!price) return 0n;
  let units = 0n;
  for (const { event } of log) {
    const u = event.type === 'span.model_request_end' ? event.model_usage : event.type === 'span.outcome_evaluation_end' ? event.usage : undefined;
    if (!u) continue;
    units += listCostUnits(
      {
        input_tokens: u.input_tokens,
        output_tokens: u.output_tokens,
        cache_read_input_tokens: u.cache_read_input_tokens,
        cache_creation_5m_input_tokens: u.cache_creation_input_tokens,
        cache_creation_1h_input_tokens: 0,
      },
      price,
    );
  }
  return units;
}
