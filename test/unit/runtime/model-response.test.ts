import { describe, expect, test } from 'bun:test';
import type { Message } from '@anthropic-ai/sdk/resources/messages';
import type { ListPrice } from '@shared/schema/model';
import { responseEvents, spentUnits, tokenUsageOf, usageDelta } from '../../../services/runtime/src/domain/model-response';
import { idleFor as idle, loggedEvents as log } from './session-log-fixture';

/** A model response as the session's events, and what responses cost, from their inputs alone. */

const PRICE: ListPrice = { currency: 'USD', input_per_million_tokens: '500', output_per_million_tokens: '2500' };
const usage = (over: Record<string, unknown> = {}) => ({ input_tokens: 10, output_tokens: 20, cache_read_input_tokens: 3, cache_creation_input_tokens: 4, ...over });
const response = (content: unknown[], stop_reason: string | null = 'end_turn', u: Record<string, unknown> = usage()) =>
  ({ id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content, stop_reason, stop_sequence: null, usage: u }) as unknown as Message;
const allow = new Map<string, 'allow' | 'ask'>([
  ['bash', 'allow'],
  ['edit', 'ask'],
]);

describe('tokenUsageOf and usageDelta', () => {
  test('cache writes count at the 5-minute rate, never the 1-hour one; missing counts are 0', () => {
    expect(tokenUsageOf(response([]))).toEqual({
      input_tokens: 10,
      output_tokens: 20,
      cache_read_input_tokens: 3,
      cache_creation_5m_input_tokens: 4,
      cache_creation_1h_input_tokens: 0,
    });
    expect(tokenUsageOf(response([], 'end_turn', { input_tokens: 1, output_tokens: 2, cache_read_input_tokens: null, cache_creation_input_tokens: null }))).toEqual({
      input_tokens: 1,
      output_tokens: 2,
      cache_read_input_tokens: 0,
      cache_creation_5m_input_tokens: 0,
      cache_creation_1h_input_tokens: 0,
    });
  });

  test('the delta carries the tokens and their list cost as a decimal string; no price costs nothing', () => {
    const tokens = { input_tokens: 1000, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_5m_input_tokens: 0, cache_creation_1h_input_tokens: 0 };
    expect(usageDelta(tokens, PRICE)).toEqual({ ...tokens, list_cost_units: '50000000' });
    expect(usageDelta(tokens, null).list_cost_units).toBe('0');
  });
});

describe('responseEvents', () => {
  test("blocks in the response's order, then the request's end span with its usage, then idle at end_turn", () => {
    const events = responseEvents(
      response([
        { type: 'thinking', thinking: '...', signature: 's' },
        { type: 'text', text: 'hello' },
        { type: 'redacted_thinking', data: 'x' },
      ]),
      'sevt_start',
      allow,
      { graded: false },
    );
    expect(events as unknown[]).toEqual([
      { type: 'agent.thinking' },
      { type: 'agent.message', content: [{ type: 'text', text: 'hello' }] },
      { type: 'agent.thinking' },
      {
        type: 'span.model_request_end',
        is_error: false,
        model_request_start_id: 'sevt_start',
        model_usage: { input_tokens: 10, output_tokens: 20, cache_read_input_tokens: 3, cache_creation_input_tokens: 4 },
      },
      idle('end_turn'),
    ]);
  });

  test("a toolset tool carries its permission; any other tool is the client's; a call asking for tools leaves the session running", () => {
    const events = responseEvents(
      response(
        [
          { type: 'tool_use', id: 'tu_1', name: 'bash', input: { command: 'ls' } },
          { type: 'tool_use', id: 'tu_2', name: 'edit', input: null },
          { type: 'tool_use', id: 'tu_3', name: 'lookup', input: { q: 'x' } },
        ],
        'tool_use',
      ),
      's',
      allow,
      { graded: false },
    );
    expect(events.slice(0, 3) as unknown[]).toEqual([
      { type: 'agent.tool_use', name: 'bash', input: { command: 'ls' }, evaluated_permission: 'allow' },
      // No input at all is an empty one.
      { type: 'agent.tool_use', name: 'edit', input: {}, evaluated_permission: 'ask' },
      { type: 'agent.custom_tool_use', name: 'lookup', input: { q: 'x' } },
    ]);
    expect(events.map((e) => e.type)).toEqual(['agent.tool_use', 'agent.tool_use', 'agent.custom_tool_use', 'span.model_request_end']);
  });

  test('a refusal rests the session as refused, graded or not', () => {
    for (const graded of [false, true]) {
      expect(responseEvents(response([], 'refusal'), 's', allow, { graded }).at(-1) as unknown).toEqual(idle('refusal'));
    }
  });

  test("with an outcome being graded the end of a turn is the grader's: no idle", () => {
    const events = responseEvents(response([{ type: 'text', text: 'done' }], 'end_turn'), 's', allow, { graded: true });
    expect(events.at(-1)?.type).toBe('span.model_request_end');
  });

  test('any other stop (max_tokens, stop_sequence, none) rests at end_turn', () => {
    for (const stop of ['max_tokens', 'stop_sequence', null]) {
      expect(responseEvents(response([], stop), 's', allow, { graded: false }).at(-1) as unknown).toEqual(idle('end_turn'));
    }
  });
});

describe('spentUnits', () => {
  const tokens = { input_tokens: 1000, output_tokens: 1000, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
  const spans = log(
    { type: 'span.model_request_end', is_error: false, model_request_start_id: 'x', model_usage: tokens },
    { type: 'agent.message', content: [] },
    { type: 'span.outcome_evaluation_end', outcome_id: 'o', iteration: 0, outcome_evaluation_start_id: 'y', result: 'satisfied', explanation: '', usage: tokens },
  );

  test("every model response's and every evaluation's tokens at the list price", () => {
    // 1,000 input and 1,000 output tokens: 3 cents each time.
    expect(spentUnits(spans, PRICE)).toBe(2n * 300_000_000n);
  });

  test('cache reads and writes count at their rates (writes at 5 minutes)', () => {
    const cached = log({ type: 'span.model_request_end', is_error: false, model_request_start_id: 'x', model_usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 1, cache_creation_input_tokens: 1 } });
    expect(spentUnits(cached, PRICE)).toBe(5_000n + 62_500n);
  });

  test('no price, or nothing spent, is 0', () => {
    expect(spentUnits(spans, null)).toBe(0n);
    expect(spentUnits([], PRICE)).toBe(0n);
    expect(spentUnits(log({ type: 'user.message', content: [] }), PRICE)).toBe(0n);
  });
});
