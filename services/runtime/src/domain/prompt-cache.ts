import type { ContentBlockParam, MessageCreateParamsNonStreaming, MessageParam, ToolUnion } from '@anthropic-ai/sdk/resources/messages';

/**
 * Prompt caching, as the Messages API documents it: the prefix of a request up to a
 * `cache_control` breakpoint (tools, then system, then messages) is written to the cache and read
 * back by a later request with the same prefix, at a tenth of the input price. A session's turns
 * share everything but their growing end, so each request marks two breakpoints: the last tool
 * (the tools change least; a system prompt edited by a system.message then keeps the tools
 * cached) and the conversation's last content block (the whole prefix; the next turn finds this
 * one among the blocks the API looks back over). Within the API's four.
 */
export function withCacheBreakpoints(request: MessageCreateParamsNonStreaming): MessageCreateParamsNonStreaming {
  const ephemeral = { type: 'ephemeral' as const };
  const tools = request.tools?.map((tool, i, all): ToolUnion => (i === all.length - 1 ? { ...tool, cache_control: ephemeral } : tool));
  return { ...request, ...(tools ? { tools } : {}), messages: markLastBlock(request.messages) };
}

/** Blocks the API takes a breakpoint on: not thinking, and not an empty text. */
function cacheable(block: ContentBlockParam): boolean {
  if (block.type === 'thinking' || block.type === 'redacted_thinking') return false;
  return block.type !== 'text' || block.text.length > 0;
}

function markLastBlock(messages: MessageParam[]): MessageParam[] {
  const last = messages.at(-1);
  if (!last) return messages;
  const blocks: ContentBlockParam[] = typeof last.content === 'string' ? (last.content ? [{ type: 'text', text: last.content }] : []) : [...last.content];
  const at = blocks.findLastIndex(cacheable);
  if (at < 0) return messages;
  blocks[at] = { ...blocks[at], cache_control: { type: 'ephemeral' } } as ContentBlockParam;
  return [...messages.slice(0, -1), { ...last, content: blocks } as MessageParam];
}
