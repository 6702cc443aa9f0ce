import { describe, expect, test } from 'bun:test';
import { APIError } from '@anthropic-ai/sdk';
import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import {
  compactionLimitEvents,
  compactionLimitReached,
  contextNearlyFull,
  estimatedContextTokens,
  eventsInContext,
  lastCompaction,
  promptTooLong,
  summaryRequest,
  summaryText,
  transcriptSummaryRequest,
  withSummary,
} from '../../../services/runtime/src/domain/context-compaction';
import { classifyModelFailure } from '../../../services/runtime/src/domain/model-errors';
import { buildModelRequest } from '../../../services/runtime/src/domain/model-request';
import { nextStep } from '../../../services/runtime/src/domain/next-step';
import { withCacheBreakpoints } from '../../../services/runtime/src/domain/prompt-cache';
import { readLogState } from '../../../services/runtime/src/domain/session-log';
import { idleFor, loggedEvents, sessionAgent, userMessage } from './session-log-fixture';

/** Long sessions: when a conversation is compacted, what the turns after it send, and when compacting gives up. */

const usage = (input: number, output = 0, more: Record<string, number> = {}) => ({
  input_tokens: input,
  output_tokens: output,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
  ...more,
});
const start = (id: string) => ({ type: 'span.model_request_start', id });
const end = (startId: string, model_usage = usage(0), is_error = false) => ({ type: 'span.model_request_end', is_error, model_request_start_id: startId, model_usage });
const agentSays = (text: string) => ({ type: 'agent.message', content: [{ type: 'text', text }] });
const compacted = { type: 'agent.thread_context_compacted' };
const running = { type: 'session.status_running' };

/** A first turn answered, a second message, and the compaction made for the second turn (span s2). */
const compactedSession = [
  userMessage('Write the report to /tmp/report.md'),
  running,
  start('s1'),
  agentSays('Done: /tmp/report.md'),
  end('s1', usage(190_000, 100)),
  idleFor('end_turn'),
  userMessage('Now add a summary section'),
  running,
  start('s2'),
  compacted,
  end('s2', usage(190_050, 900)),
];

describe('when a turn compacts first', () => {
  test("the last turn's reported usage, all of it, plus what came after it, roughly", () => {
    const log = loggedEvents(userMessage('hi'), start('s1'), agentSays('hello'), end('s1', usage(1_000, 50, { cache_read_input_tokens: 3_000, cache_creation_input_tokens: 200 })));
    expect(estimatedContextTokens(log)).toBe(4_250);
    const more = loggedEvents(...log.map((e) => e.event), userMessage('x'.repeat(4_000)));
    expect(estimatedContextTokens(more)! - 4_250).toBeGreaterThanOrEqual(1_000);
    expect(estimatedContextTokens(more)! - 4_250).toBeLessThan(1_100);
  });

  test('an image counts as an image, not as its base64 length', () => {
    const image = { type: 'user.message', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(4_000_000) } }] };
    const log = loggedEvents(userMessage('hi'), start('s1'), end('s1', usage(100)), image);
    expect(estimatedContextTokens(log)).toBeLessThan(2_000);
  });

  test('nothing to compact before a first answer, nor again before the model answered a turn since the last compaction', () => {
    expect(estimatedContextTokens(loggedEvents(userMessage('x'.repeat(10_000_000))))).toBeUndefined();
    expect(estimatedContextTokens(loggedEvents(...compactedSession))).toBeUndefined();
    // A failed turn reported no usage to start from either.
    expect(estimatedContextTokens(loggedEvents(userMessage('hi'), start('s1'), end('s1', usage(0), true)))).toBeUndefined();
  });

  test('past the threshold of the window, not at it', () => {
    const log = loggedEvents(userMessage('hi'), start('s1'), agentSays('hello'), end('s1', usage(160_000)), idleFor('end_turn'));
    const estimate = estimatedContextTokens(log)!;
    expect(contextNearlyFull(log, 200_000, 0.8)).toBe(estimate > 160_000);
    expect(contextNearlyFull(log, 200_000, 0.9)).toBe(false);
    expect(contextNearlyFull(log, 1_000_000, 0.8)).toBe(false);
    expect(contextNearlyFull(loggedEvents(userMessage('hi'), start('s1'), end('s1', usage(190_000))), 200_000, 0.8)).toBe(true);
  });

  test('a request the API refuses as too long compacts; another refusal does not', () => {
    const refused = (status: number, message: string) =>
      classifyModelFailure(APIError.generate(status, { type: 'error', error: { type: 'invalid_request_error', message } }, message, new Headers()));
    expect(promptTooLong(refused(400, 'prompt is too long: 210034 tokens > 200000 maximum'))).toBe(true);
    expect(promptTooLong(refused(400, 'messages: roles must alternate'))).toBe(false);
    expect(promptTooLong(refused(500, 'prompt is too long'))).toBe(false);
  });
});

describe('the log after a compaction', () => {
  test('the compaction is found with the span its summary was made in', () => {
    expect(lastCompaction(loggedEvents(...compactedSession))).toEqual({ index: 9, startId: 's2' });
    expect(lastCompaction(loggedEvents(userMessage('hi')))).toBeUndefined();
  });

  test('its span is no answer: the turn it was made for is still owed, and is the next step', () => {
    const state = readLogState(loggedEvents(...compactedSession));
    expect(state).toMatchObject({ openRequestStartId: undefined, inputSinceLastResponse: true, compactionsInARow: 1 });
    expect(nextStep(state, { reached: false })).toEqual({ kind: 'callModel', startId: undefined });
    // Begun and not recorded (its replica died): the span is finished first, as any other.
    expect(nextStep(readLogState(loggedEvents(...compactedSession.slice(0, -2))), { reached: false })).toEqual({ kind: 'callModel', startId: 's2' });
  });

  test('the next turn reads the events after it, and the system messages from before it', () => {
    const system = { type: 'system.message', content: [{ type: 'text', text: 'Answer in French.' }] };
    const call = { type: 'agent.tool_use', id: 'sevt_late', name: 'bash', input: {}, evaluated_permission: 'allow' };
    const log = loggedEvents(
      userMessage('first'),
      system,
      start('s1'),
      call,
      end('s1', usage(10)),
      { type: 'user.interrupt' },
      { type: 'user.tool_result', tool_use_id: 'sevt_late', content: [{ type: 'text', text: 'stopped' }], is_error: true },
      userMessage('second'),
      start('s2'),
      compacted,
      end('s2', usage(10)),
      // A worker's late second answer to the call from before the compaction.
      { type: 'user.tool_result', tool_use_id: 'sevt_late', content: [{ type: 'text', text: 'late' }] },
      start('s3'),
      agentSays('after'),
      end('s3', usage(10)),
      userMessage('third'),
    );
    const kept = eventsInContext(log, lastCompaction(log)).map(({ event }) => event.type);
    // (The compaction's own span end is kept too: it says nothing to the model.)
    expect(kept).toEqual(['system.message', 'span.model_request_end', 'span.model_request_start', 'agent.message', 'span.model_request_end', 'user.message']);
    const request = withSummary(buildModelRequest(sessionAgent({ system: 'You help.' }), eventsInContext(log, lastCompaction(log)), [], 1024), 'SUMMARY');
    expect(request.system).toBe('You help.\n\nAnswer in French.');
    expect(request.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(request.messages[0])).toContain('<summary>\\nSUMMARY\\n</summary>');
    expect(JSON.stringify(request.messages)).not.toContain('first');
  });

  test('the summary opens the first user message, or is one of its own', () => {
    const base: MessageCreateParamsNonStreaming = { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'go on' }] };
    const joined = withSummary(base, 'S');
    expect(joined.messages).toHaveLength(1);
    expect(joined.messages[0]!.content).toMatchObject([{ type: 'text' }, { type: 'text', text: 'go on' }]);
    const alone = withSummary({ ...base, messages: [] }, 'S');
    expect(alone.messages).toMatchObject([{ role: 'user', content: [{ type: 'text' }] }]);
    expect(withSummary(base, undefined)).toBe(base);
  });
});

describe('the summary turn', () => {
  const turn = withCacheBreakpoints(
    buildModelRequest(sessionAgent({ system: 'You help.' }), loggedEvents(userMessage('Write /tmp/a.md'), start('s1'), agentSays('Done'), end('s1', usage(1)), userMessage('More')), [
      { name: 'bash', description: 'runs', input_schema: { type: 'object' } },
    ], 1024),
  );

  test("is the turn's own request, its cached prefix untouched, with the instruction last", () => {
    const request = summaryRequest(turn);
    expect(request.system).toBe(turn.system);
    expect(request.tools).toEqual(turn.tools);
    expect(request.messages.slice(0, -1)).toEqual(turn.messages.slice(0, -1));
    const last = request.messages.at(-1)!.content as Array<{ type: string; text?: string; cache_control?: unknown }>;
    expect(last.at(-2)).toEqual({ type: 'text', text: 'More', cache_control: { type: 'ephemeral' } });
    expect(last.at(-1)!.text).toContain('latest one quoted verbatim');
  });

  test('of a conversation too long for the model: the earlier summary and a transcript, no tools', () => {
    const request = transcriptSummaryRequest('m', 512, 'EARLIER', '[user] hi');
    expect(request.tools).toBeUndefined();
    expect(request.messages[0]!.content).toContain('<earlier_summary>\nEARLIER\n</earlier_summary>');
    expect(request.messages[0]!.content).toContain('<transcript>\n[user] hi\n</transcript>');
  });

  test('the summary is the answer’s text; an answer without any has none', () => {
    expect(summaryText({ content: [{ type: 'text', text: ' S ', citations: null }] })).toBe('S');
    expect(summaryText({ content: [{ type: 'tool_use', id: 't', name: 'bash', input: {} } as never] })).toBeUndefined();
  });
});

describe('compacting gives up', () => {
  test('after two compactions in a row with no message or tool call from the model: the SDK error, exhausted, idle', () => {
    const again = [...compactedSession, start('s3'), end('s3', usage(0), true), start('s4'), compacted, end('s4', usage(5))];
    expect(compactionLimitReached(readLogState(loggedEvents(...compactedSession)))).toBe(false);
    expect(compactionLimitReached(readLogState(loggedEvents(...again)))).toBe(true);
    expect(compactionLimitEvents() as unknown[]).toEqual([
      { type: 'session.error', error: { type: 'compaction_limit_reached_error', message: expect.any(String), retry_status: { type: 'exhausted' } } },
      idleFor('retries_exhausted'),
    ]);
  });

  test('an answer from the model, or a rest, starts the count again', () => {
    const again = [...compactedSession, start('s3'), compacted, end('s3', usage(5))];
    expect(readLogState(loggedEvents(...again, start('s4'), agentSays('ok'))).compactionsInARow).toBe(0);
    expect(readLogState(loggedEvents(...again, idleFor('retries_exhausted'))).compactionsInARow).toBe(0);
    const call = { type: 'agent.tool_use', id: 'sevt_c', name: 'bash', input: {}, evaluated_permission: 'allow' };
    expect(readLogState(loggedEvents(...again, start('s4'), call)).compactionsInARow).toBe(0);
  });
});
