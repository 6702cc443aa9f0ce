import { describe, expect, test } from 'bun:test';
import { AnthropicError, APIConnectionError, APIError } from '@anthropic-ai/sdk';
import type { Message } from '@anthropic-ai/sdk/resources/messages';
import { createLogger } from '@shared/log/logger';
import { requestWithRetries, type ModelApi } from '../../../services/runtime/src/clients/model-api';
import { classifyModelFailure, retryDelayMs, retryingEvents } from '../../../services/runtime/src/domain/model-errors';

/** Which model failures are retried, how long the runtime waits, and the retry loop driven by a fake wait. */

const failing = (status: number) => APIError.generate(status, { type: 'error', error: { type: 'api_error', message: 'no' } }, 'no', new Headers());
const policy = { maxRetries: 2, retryBaseMs: 100 };

describe('classifyModelFailure', () => {
  test.each([
    [529, 'model_overloaded_error', true],
    [429, 'model_rate_limited_error', true],
    [500, 'model_request_failed_error', true],
    [503, 'model_request_failed_error', true],
    [400, 'model_request_failed_error', false],
    [404, 'model_request_failed_error', false],
  ])('HTTP %d is %s, retryable %p', (status, type, retryable) => {
    expect(classifyModelFailure(failing(status))).toMatchObject({ type, retryable });
  });

  test('an unreachable API is retried; anything else is unknown and not retried', () => {
    expect(classifyModelFailure(new APIConnectionError({ message: 'refused' }))).toMatchObject({ type: 'model_request_failed_error', retryable: true });
    expect(classifyModelFailure(new Error('boom'))).toEqual({ type: 'unknown_error', message: 'the model request failed unexpectedly', retryable: false });
  });

  test('a streamed answer that fails after its 200 is classified by the error event it carried, or retried when cut short', () => {
    const midStream = (type: string) => new APIError(undefined, { type: 'error', error: { type, message: 'x' } }, undefined, new Headers());
    expect(classifyModelFailure(midStream('overloaded_error'))).toMatchObject({ type: 'model_overloaded_error', retryable: true });
    expect(classifyModelFailure(midStream('rate_limit_error'))).toMatchObject({ type: 'model_rate_limited_error', retryable: true });
    expect(classifyModelFailure(midStream('api_error'))).toMatchObject({ type: 'model_request_failed_error', retryable: true });
    expect(classifyModelFailure(midStream('invalid_request_error'))).toMatchObject({ type: 'model_request_failed_error', retryable: false });
    expect(classifyModelFailure(new AnthropicError('stream ended without producing a Message'))).toMatchObject({ type: 'model_request_failed_error', retryable: true });
  });

  test("the API's message is kept short", () => {
    const long = APIError.generate(500, undefined, 'x'.repeat(5000), new Headers());
    expect(classifyModelFailure(long).message.length).toBeLessThan(600);
  });
});

describe('retryDelayMs', () => {
  const retryable = classifyModelFailure(failing(529));
  test('the wait doubles from the base at each attempt', () => {
    expect([0, 1].map((attempt) => retryDelayMs(retryable, attempt, policy))).toEqual([100, 200]);
  });
  test('no retry once maxRetries were made, nor of a failure retrying cannot fix', () => {
    expect(retryDelayMs(retryable, 2, policy)).toBeUndefined();
    expect(retryDelayMs(retryable, 0, { ...policy, maxRetries: 0 })).toBeUndefined();
    expect(retryDelayMs(classifyModelFailure(failing(400)), 0, policy)).toBeUndefined();
  });
  test('a retry is announced retrying, the session rescheduled', () => {
    expect(retryingEvents(retryable)).toEqual([
      { type: 'session.error', error: { type: retryable.type, message: retryable.message, retry_status: { type: 'retrying' } } },
      { type: 'session.status_rescheduled' },
    ]);
  });
});

describe('requestWithRetries', () => {
  const answer = { id: 'msg_1', content: [] } as unknown as Message;
  /** A model that fails with each given error in turn, then answers. */
  const model = (errors: unknown[]): ModelApi & { calls: number } => {
    const api = {
      configured: true,
      calls: 0,
      async create() {
        const err = errors[api.calls++];
        if (err) throw err;
        return answer;
      },
    };
    return api;
  };
  const run = (api: ModelApi, hooks: { beforeWait?: () => Promise<boolean>; afterWait?: () => Promise<boolean> } = {}) => {
    const waits: number[] = [];
    const said: string[] = [];
    const outcome = requestWithRetries(api, { model: 'm', max_tokens: 1, messages: [] }, { ...policy, sleep: async (ms) => void waits.push(ms), logger: createLogger('error') }, {
      beforeWait: hooks.beforeWait ?? (async () => (said.push('retrying'), true)),
      afterWait: hooks.afterWait ?? (async () => (said.push('running'), true)),
    });
    return { outcome, waits, said };
  };

  test('answers at once: no wait, nothing announced', async () => {
    const { outcome, waits, said } = run(model([]));
    expect(await outcome).toEqual({ kind: 'answered', message: answer });
    expect([waits, said]).toEqual([[], []]);
  });

  test('each retry is announced before its wait and after it; the answer after the retries is the answer', async () => {
    const api = model([failing(529), failing(429)]);
    const { outcome, waits, said } = run(api);
    expect(await outcome).toEqual({ kind: 'answered', message: answer });
    expect(waits).toEqual([100, 200]);
    expect(said).toEqual(['retrying', 'running', 'retrying', 'running']);
    expect(api.calls).toBe(3);
  });

  test('retries used up: the last failure, with no further wait', async () => {
    const { outcome, waits } = run(model([failing(500), failing(500), failing(500)]));
    expect(await outcome).toMatchObject({ kind: 'failed', failure: { type: 'model_request_failed_error', retryable: true } });
    expect(waits).toEqual([100, 200]);
  });

  test('a failure retrying cannot fix fails at once', async () => {
    const { outcome, waits } = run(model([failing(400)]));
    expect(await outcome).toMatchObject({ kind: 'failed', failure: { retryable: false } });
    expect(waits).toEqual([]);
  });

  test('an announcement that cannot be made gives the request up, before or after the wait', async () => {
    const before = run(model([failing(529)]), { beforeWait: async () => false });
    expect(await before.outcome).toEqual({ kind: 'given_up' });
    expect(before.waits).toEqual([]);
    const after = run(model([failing(529)]), { afterWait: async () => false });
    expect(await after.outcome).toEqual({ kind: 'given_up' });
    expect(after.waits).toEqual([100]);
  });
});
