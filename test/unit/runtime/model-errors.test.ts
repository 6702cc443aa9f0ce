import { describe, expect, test } from 'bun:test';
import { APIError } from '@anthropic-ai/sdk';
import type { SessionEvent } from '@shared/schema/session-event';
import { classifyModelFailure, NO_MODEL_CREDENTIALS, turnEndingError } from '../../../services/runtime/src/domain/model-errors';
import { nextStep } from '../../../services/runtime/src/domain/next-step';
import { readLogState } from '../../../services/runtime/src/domain/session-log';

/** A failed model request as the session records it: the announced retry status and the state it leaves agree. */

const refused = (status: number) => APIError.generate(status, { type: 'error', error: { type: 'invalid_request_error', message: 'bad' } }, 'bad', new Headers());

describe('a failure that ends the turn', () => {
  test('a request the model API refuses as invalid (400) is not retried', () => {
    expect(classifyModelFailure(refused(400))).toMatchObject({ type: 'model_request_failed_error', retryable: false });
    expect(classifyModelFailure(refused(529))).toMatchObject({ type: 'model_overloaded_error', retryable: true });
  });

  test.each([
    ['a refused request', classifyModelFailure(refused(400))],
    ['retries used up', classifyModelFailure(refused(529))],
    ['no model key', NO_MODEL_CREDENTIALS],
  ])('%s: announced exhausted (the SDK: the turn is dead, the session returns to idle), and the session rests idle', (_, failure) => {
    const events = turnEndingError(failure);
    expect(events).toEqual([
      { type: 'session.error', error: { type: failure.type, message: failure.message, retry_status: { type: 'exhausted' } } },
      { type: 'session.status_idle', stop_reason: { type: 'retries_exhausted' }, stop_details: null },
    ]);
    // Never `terminal` ("will transition to terminated"): the runtime does not terminate the session.
    const log = [{ type: 'user.message', content: [{ type: 'text', text: 'hi' }] }, ...events].map((body, i) => ({
      sequence: i + 1,
      event: { id: `sevt_${i}`, processed_at: 't', ...body } as SessionEvent,
    }));
    const state = readLogState(log);
    expect(state.lastStatus?.type).toBe('session.status_idle');
    expect(nextStep(state, { reached: false })).toEqual({ kind: 'none' });
  });
});
