import { describe, expect, test } from 'bun:test';
import type { SessionEvent } from '@shared/schema/session-event';
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
    expect(next(running)).toEqual({ kind: 'append', events: [idle('end_turn')] });
    expect(next(log(message, { type: 'session.status_running' }, { type: 'user.interrupt' }, idle('end_turn')))).toEqual({ kind: 'none' });
  });
});
