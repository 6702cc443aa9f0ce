import { describe, expect, test } from 'bun:test';
import type { SessionEvent } from '@shared/schema/session-event';
import { buildModelRequest } from '../../../services/runtime/src/domain/model-request';
import { nextStep } from '../../../services/runtime/src/domain/next-step';
import { readLogState, type LoggedEvent } from '../../../services/runtime/src/domain/session-log';

/** What a session needs next, from its log alone: the rules that keep a session from driving itself for ever. */

let ids = 0;
const log = (...bodies: Array<Record<string, unknown>>): LoggedEvent[] =>
  bodies.map((body, i) => ({ sequence: i + 1, event: { id: (body.id as string) ?? `sevt_${++ids}`, processed_at: 't', ...body } as SessionEvent }));
const next = (events: LoggedEvent[]) => nextStep(readLogState(events), { reached: false });

const message = { type: 'user.message', content: [{ type: 'text', text: 'hi' }] };
const failed = { type: 'session.error', error: { type: 'model_request_failed_error', message: 'no key', retry_status: { type: 'exhausted' } } };
const idle = (type: string) => ({ type: 'session.status_idle', stop_reason: { type }, stop_details: null });

describe('a session at rest stays at rest', () => {
  test('an error that ended the turn without a response (no model key) answers the input before it', () => {
    expect(next(log(message)).kind).toBe('callModel');
    expect(next(log(message, failed, idle('retries_exhausted')))).toEqual({ kind: 'none' });
  });

  test('a new message after that rest is new input: one more turn', () => {
    expect(next(log(message, failed, idle('retries_exhausted'), message)).kind).toBe('callModel');
  });

  test('an interrupt is no new input: a session already at rest writes nothing for it', () => {
    expect(next(log(message, failed, idle('retries_exhausted'), { type: 'user.interrupt' }))).toEqual({ kind: 'none' });
    expect(next(log(message, { type: 'session.status_running' }, idle('end_turn'), { type: 'user.interrupt' }))).toEqual({ kind: 'none' });
  });

  test('an interrupt of a running session rests it once', () => {
    const running = log(message, { type: 'session.status_running' }, { type: 'user.interrupt' });
    expect(next(running)).toMatchObject({ kind: 'append', events: [idle('end_turn')] });
    expect(next(log(message, { type: 'session.status_running' }, { type: 'user.interrupt' }, idle('end_turn')))).toEqual({ kind: 'none' });
  });
});

const bash = { type: 'agent.tool_use', id: 'sevt_call', name: 'bash', input: { command: 'sleep 30' }, evaluated_permission: 'allow' };
const turnWithCall = [message, { type: 'session.status_running' }, { type: 'span.model_request_start' }, bash, { type: 'span.model_request_end', is_error: false, model_request_start_id: 'x', model_usage: {} }];
const stoppedResult = { type: 'user.tool_result', tool_use_id: 'sevt_call', is_error: true, content: [{ type: 'text', text: 'stopped' }] };

describe('an interrupt stops the turn, its tools included', () => {
  test('a call still running is answered as interrupted, the worker stopped, the session rested', () => {
    expect(next(log(...turnWithCall)).kind).toBe('awaitWorker');
    const step = next(log(...turnWithCall, { type: 'user.interrupt' }));
    expect(step).toMatchObject({
      kind: 'append',
      stopWorker: true,
      events: [{ type: 'user.tool_result', tool_use_id: 'sevt_call', is_error: true }, idle('end_turn')],
    });
  });

  test("the worker's late result for the stopped call is no new input: nothing runs", () => {
    const rested = [...turnWithCall, { type: 'user.interrupt' }, stoppedResult, idle('end_turn')];
    expect(next(log(...rested))).toEqual({ kind: 'none' });
    const late = { type: 'user.tool_result', tool_use_id: 'sevt_call', content: [{ type: 'text', text: 'done' }] };
    expect(next(log(...rested, late))).toEqual({ kind: 'none' });
    // Nor when it lands between the interrupt and the runtime's answer: the turn still ends.
    expect(next(log(...turnWithCall, { type: 'user.interrupt' }, late))).toMatchObject({ kind: 'append', events: [idle('end_turn')], stopWorker: true });
  });

  test('a new message after the interrupt is a new turn', () => {
    expect(next(log(...turnWithCall, { type: 'user.interrupt' }, stoppedResult, idle('end_turn'), message)).kind).toBe('callModel');
  });

  test('the model hears each call answered once: a second answer (a late result) is left out', () => {
    const late = { type: 'user.tool_result', tool_use_id: 'sevt_call', content: [{ type: 'text', text: 'done' }] };
    const agent = { model: { id: 'claude-opus-4-5' }, system: null, tools: [] } as never;
    const request = buildModelRequest(agent, log(...turnWithCall, { type: 'user.interrupt' }, stoppedResult, idle('end_turn'), late, message), [], 100);
    const results = request.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b) => b.type === 'tool_result');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ tool_use_id: 'sevt_call', is_error: true });
  });
});
