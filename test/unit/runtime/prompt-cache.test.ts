import { expect, test } from 'bun:test';
import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import { withCacheBreakpoints } from '../../../services/runtime/src/domain/prompt-cache';

const base: MessageCreateParamsNonStreaming = {
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  system: 'be brief',
  tools: [
    { name: 'bash', description: 'run', input_schema: { type: 'object' } },
    { name: 'read', description: 'read', input_schema: { type: 'object' } },
  ],
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'hi' }] },
    { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'bash', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }, { type: 'text', text: '' }] },
  ],
};

test('two breakpoints: the last tool and the last block of the conversation that can carry one', () => {
  const marked = withCacheBreakpoints(base);
  expect(marked.tools?.map((t) => 'cache_control' in t && t.cache_control)).toEqual([false, { type: 'ephemeral' }]);
  // The empty text cannot carry a breakpoint: the tool result before it does.
  expect(marked.messages.at(-1)!.content).toEqual([{ type: 'tool_result', tool_use_id: 't1', content: 'ok', cache_control: { type: 'ephemeral' } }, { type: 'text', text: '' }]);
  // Earlier messages, the system prompt and the request given are left as they were.
  expect(marked.messages.slice(0, 2)).toEqual(base.messages.slice(0, 2));
  expect(marked.system).toBe('be brief');
  expect(JSON.stringify(base)).not.toContain('cache_control');
});

test('a string message becomes a block to carry it; no tools, no tool breakpoint; no messages, nothing', () => {
  const marked = withCacheBreakpoints({ ...base, tools: undefined, messages: [{ role: 'user', content: 'hello' }] });
  expect(marked.tools).toBeUndefined();
  expect(marked.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hello', cache_control: { type: 'ephemeral' } }] }]);
  expect(withCacheBreakpoints({ ...base, messages: [] }).messages).toEqual([]);
});
