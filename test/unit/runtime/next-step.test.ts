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

  test('a model request begun and never recorded is sent again, unless an interrupt came after it began', () => {
    const begun = [message, { type: 'session.status_running' }, { type: 'span.model_request_start', id: 'sevt_start' }];
    expect(next(log(...begun))).toEqual({ kind: 'callModel', startId: 'sevt_start' });
    expect(next(log(...begun, { type: 'user.interrupt' })) as unknown).toEqual({
      kind: 'append',
      stopWorker: true,
      events: [
        { type: 'span.model_request_end', is_error: true, model_request_start_id: 'sevt_start', model_usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } },
        idle('end_turn'),
      ],
    });
    // Its span ended (the request stopped by the interrupt): the turn rests, nothing is sent.
    const ended = { type: 'span.model_request_end', is_error: true, model_request_start_id: 'sevt_start', model_usage: {} };
    expect(next(log(...begun, { type: 'user.interrupt' }, ended))).toMatchObject({ kind: 'append', events: [idle('end_turn')], stopWorker: true });
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

describe('the next step, edge by edge', () => {
  const reached = (events: LoggedEvent[]) => nextStep(readLogState(events), { reached: true });
  const start = { type: 'span.model_request_start', id: 'sevt_start' };

  test('a terminated session does nothing, whatever its log owes', () => {
    expect(next(log(message, start, { type: 'session.status_terminated' }))).toEqual({ kind: 'none' });
  });

  test('a request begun and never recorded is sent again under its start, before anything else (even a spent budget); an interrupt ends it instead', () => {
    expect(next(log(message, start))).toEqual({ kind: 'callModel', startId: 'sevt_start' });
    expect(reached(log(message, start))).toEqual({ kind: 'callModel', startId: 'sevt_start' });
    expect(reached(log(message, start, { type: 'user.interrupt' }))).toMatchObject({ kind: 'append', events: [{ type: 'span.model_request_end', is_error: true }, idle('end_turn')] });
  });

  test('new input with the budget spent rests the session budget_reached, once', () => {
    expect(reached(log(message))).toMatchObject({ kind: 'append', events: [idle('budget_reached')] });
    expect(reached(log(message, idle('budget_reached')))).toEqual({ kind: 'none' });
  });

  test("the toolset's calls wait for a worker; a custom call or one awaiting confirmation is the client's: idle requires_action naming them, once", () => {
    expect(next(log(message, bash))).toEqual({ kind: 'awaitWorker' });
    const custom = { type: 'agent.custom_tool_use', id: 'sevt_custom', name: 'lookup', input: {} };
    const asked = { ...bash, id: 'sevt_asked', evaluated_permission: 'ask' };
    const requires = { type: 'session.status_idle', stop_reason: { type: 'requires_action', event_ids: ['sevt_custom', 'sevt_asked'] }, stop_details: null };
    expect(next(log(message, custom, asked))).toMatchObject({ kind: 'append', events: [requires] });
    expect(next(log(message, custom, asked, requires))).toEqual({ kind: 'none' });
  });

  test('a requires_action naming other calls is written again for the ones open now', () => {
    const custom = { type: 'agent.custom_tool_use', id: 'sevt_c2', name: 'lookup', input: {} };
    const stale = { type: 'session.status_idle', stop_reason: { type: 'requires_action', event_ids: ['sevt_gone'] }, stop_details: null };
    expect(next(log(message, custom, stale))).toMatchObject({ kind: 'append', events: [{ stop_reason: { type: 'requires_action', event_ids: ['sevt_c2'] } }] });
  });

  test('an approved call goes to a worker; a denied one is answered, and the model is asked again', () => {
    const asked = { ...bash, id: 'sevt_ok', evaluated_permission: 'ask' };
    expect(next(log(message, asked, { type: 'user.tool_confirmation', tool_use_id: 'sevt_ok', result: 'allow' }))).toEqual({ kind: 'awaitWorker' });
    expect(next(log(message, asked, { type: 'user.tool_confirmation', tool_use_id: 'sevt_ok', result: 'deny' })).kind).toBe('callModel');
  });

  test('an interrupt while waiting on the client ends that turn: its open calls are answered interrupted', () => {
    const custom = { type: 'agent.custom_tool_use', id: 'sevt_c3', name: 'lookup', input: {} };
    const requires = { type: 'session.status_idle', stop_reason: { type: 'requires_action', event_ids: ['sevt_c3'] }, stop_details: null };
    expect(next(log(message, custom, requires, { type: 'user.interrupt' }))).toMatchObject({
      kind: 'append',
      stopWorker: true,
      events: [{ type: 'user.custom_tool_result', custom_tool_use_id: 'sevt_c3', is_error: true }, idle('end_turn')],
    });
  });
});
