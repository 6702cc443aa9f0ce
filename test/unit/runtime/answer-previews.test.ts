import { describe, expect, test } from 'bun:test';
import type { MessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { SessionPreview } from '@shared/schema/session-preview';
import { AnswerPreviews, PREVIEW_WINDOW_MS } from '../../../services/runtime/src/domain/answer-previews';
import { HandTimers } from '../../support/hand-timers';

/** The previews of a streamed answer, from the stream's events alone; the gathering window's timer is fired by hand. */

const SESSION = 'sesn_000000000000000000000001';

function previews() {
  const sent: SessionPreview[] = [];
  let n = 0;
  const timers = new HandTimers();
  const answer = new AnswerPreviews(SESSION, () => `sevt_${String(++n).padStart(24, '0')}`, (p) => sent.push(p), timers);
  const hear = (...events: unknown[]) => events.forEach((e) => answer.hear(e as MessageStreamEvent));
  return { answer, sent, hear, timers };
}

const messageStart = { type: 'message_start', message: {} };
const start = (index: number, content_block: Record<string, unknown>) => ({ type: 'content_block_start', index, content_block });
const delta = (index: number, d: Record<string, unknown>) => ({ type: 'content_block_delta', index, delta: d });

describe('AnswerPreviews', () => {
  test('a text block opens an agent.message preview and its fragments are deltas of it: the first at once, the later ones gathered for the window; the block keeps its id', () => {
    const { answer, sent, hear, timers } = previews();
    hear(messageStart, start(0, { type: 'text', text: '' }), delta(0, { type: 'text_delta', text: 'Hel' }), delta(0, { type: 'text_delta', text: 'lo' }));
    const id = 'sevt_000000000000000000000001';
    const fragment = (text: string): SessionPreview => ({
      session_id: SESSION,
      previewed: 'agent.message',
      event: { type: 'event_delta', event_id: id, delta: { type: 'content_delta', index: 0, content: { type: 'text', text } } },
    });
    expect(sent).toEqual([{ session_id: SESSION, previewed: 'agent.message', event: { type: 'event_start', event: { id, type: 'agent.message' } } }, fragment('Hel')]);
    expect(timers.delays).toEqual([PREVIEW_WINDOW_MS]);
    hear(delta(0, { type: 'text_delta', text: ', w' }), delta(0, { type: 'text_delta', text: 'orld' }));
    expect(sent).toHaveLength(2);
    timers.fireAll();
    expect(sent.slice(2)).toEqual([fragment('lo, world')]);
    // The next window opens with the next fragment.
    hear(delta(0, { type: 'text_delta', text: '!' }));
    expect(sent).toHaveLength(3);
    timers.fireAll();
    expect(sent.slice(3)).toEqual([fragment('!')]);
    expect(answer.idOf(0)).toBe(id);
  });

  test("a fast stream costs a few previews, not one per fragment, and they spell the text exactly, in order", () => {
    const { sent, hear, timers } = previews();
    const words = Array.from({ length: 200 }, (_, i) => `w${i} `);
    hear(messageStart, start(0, { type: 'text', text: '' }));
    words.forEach((w, i) => {
      hear(delta(0, { type: 'text_delta', text: w }));
      if (i % 50 === 49) timers.fireAll();
    });
    hear({ type: 'content_block_stop', index: 0 });
    const deltas = sent.filter((p) => p.event.type === 'event_delta');
    expect(deltas.length).toBeLessThanOrEqual(6);
    expect(deltas.map((p) => (p.event.type === 'event_delta' ? p.event.delta.content.text : '')).join('')).toBe(words.join(''));
    expect(timers.count).toBe(0);
  });

  test('gathered text past a bound goes at once: a preview stays a small message', () => {
    const { sent, hear, timers } = previews();
    hear(messageStart, start(0, { type: 'text', text: 'a' }), delta(0, { type: 'text_delta', text: 'b'.repeat(20_000) }));
    expect(sent.map((p) => p.event.type)).toEqual(['event_start', 'event_delta', 'event_delta']);
    expect(timers.count).toBe(0);
  });

  test('what waits goes before the next block opens, when the block or message stops, and at close; nothing waits after', () => {
    const text = (p: SessionPreview) => (p.event.type === 'event_delta' ? p.event.delta.content.text : p.event.type);
    const next = previews();
    next.hear(messageStart, start(0, { type: 'text', text: 'a' }), delta(0, { type: 'text_delta', text: 'b' }), start(1, { type: 'text', text: 'c' }));
    expect(next.sent.map(text)).toEqual(['event_start', 'a', 'b', 'event_start', 'c']);
    expect(next.sent.map((p) => (p.event.type === 'event_delta' ? p.event.event_id : p.event.event.id))).toEqual([
      'sevt_000000000000000000000001',
      'sevt_000000000000000000000001',
      'sevt_000000000000000000000001',
      'sevt_000000000000000000000002',
      'sevt_000000000000000000000002',
    ]);
    for (const end of [{ type: 'content_block_stop', index: 0 }, { type: 'message_stop' }]) {
      const p = previews();
      p.hear(messageStart, start(0, { type: 'text', text: '' }), delta(0, { type: 'text_delta', text: 'x' }), delta(0, { type: 'text_delta', text: 'y' }), end);
      expect(p.sent.map(text)).toEqual(['event_start', 'x', 'y']);
      expect(p.timers.count).toBe(0);
    }
    const closed = previews();
    closed.hear(messageStart, start(0, { type: 'text', text: '' }), delta(0, { type: 'text_delta', text: 'x' }), delta(0, { type: 'text_delta', text: 'y' }));
    closed.answer.close();
    expect(closed.sent.map(text)).toEqual(['event_start', 'x', 'y']);
    expect(closed.timers.count).toBe(0);
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
