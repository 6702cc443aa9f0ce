import { describe, expect, test } from 'bun:test';
import type { MessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { SessionPreview } from '@shared/schema/session-preview';
import { AnswerPreviews } from '../../../services/runtime/src/domain/answer-previews';

/** The previews of a streamed answer, from the stream's events alone. */

const SESSION = 'sesn_000000000000000000000001';

function previews() {
  const sent: SessionPreview[] = [];
  let n = 0;
  const answer = new AnswerPreviews(SESSION, () => `sevt_${String(++n).padStart(24, '0')}`, (p) => sent.push(p));
  const hear = (...events: unknown[]) => events.forEach((e) => answer.hear(e as MessageStreamEvent));
  return { answer, sent, hear };
}

const messageStart = { type: 'message_start', message: {} };
const start = (index: number, content_block: Record<string, unknown>) => ({ type: 'content_block_start', index, content_block });
const delta = (index: number, d: Record<string, unknown>) => ({ type: 'content_block_delta', index, delta: d });

describe('AnswerPreviews', () => {
  test('a text block opens an agent.message preview and each fragment is a delta of it; the block keeps its id', () => {
    const { answer, sent, hear } = previews();
    hear(messageStart, start(0, { type: 'text', text: '' }), delta(0, { type: 'text_delta', text: 'Hel' }), delta(0, { type: 'text_delta', text: 'lo' }));
    const id = 'sevt_000000000000000000000001';
    expect(sent).toEqual([
      { session_id: SESSION, previewed: 'agent.message', event: { type: 'event_start', event: { id, type: 'agent.message' } } },
      { session_id: SESSION, previewed: 'agent.message', event: { type: 'event_delta', event_id: id, delta: { type: 'content_delta', index: 0, content: { type: 'text', text: 'Hel' } } } },
      { session_id: SESSION, previewed: 'agent.message', event: { type: 'event_delta', event_id: id, delta: { type: 'content_delta', index: 0, content: { type: 'text', text: 'lo' } } } },
    ]);
    expect(answer.idOf(0)).toBe(id);
  });

  test('thinking is start-only; tool calls are not previewed; each block its own id', () => {
    const { answer, sent, hear } = previews();
    hear(
      messageStart,
      start(0, { type: 'thinking', thinking: '' }),
      delta(0, { type: 'thinking_delta', thinking: 'hmm' }),
      start(1, { type: 'tool_use', id: 'toolu_1', name: 'bash', input: {} }),
      delta(1, { type: 'input_json_delta', partial_json: '{}' }),
      start(2, { type: 'text', text: 'Done' }),
    );
    expect(sent.map((p) => [p.previewed, p.event.type])).toEqual([
      ['agent.thinking', 'event_start'],
      ['agent.message', 'event_start'],
      ['agent.message', 'event_delta'],
    ]);
    expect([answer.idOf(0), answer.idOf(1), answer.idOf(2)]).toEqual(['sevt_000000000000000000000001', undefined, 'sevt_000000000000000000000002']);
  });

  test('a retried request starts over under new ids', () => {
    const { answer, hear } = previews();
    hear(messageStart, start(0, { type: 'text', text: '' }));
    hear(messageStart);
    expect(answer.idOf(0)).toBeUndefined();
    hear(start(0, { type: 'text', text: '' }));
    expect(answer.idOf(0)).toBe('sevt_000000000000000000000002');
  });
});
