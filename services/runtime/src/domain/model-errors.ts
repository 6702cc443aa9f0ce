import { AnthropicError, APIConnectionError, APIError } from '@anthropic-ai/sdk';
import type { RuntimeEventBody, SESSION_ERROR_TYPES } from '@shared/schema/session-event';

export type SessionErrorType = (typeof SESSION_ERROR_TYPES)[number];

/** A failed model request as the session reports it, and whether trying again may help. */
export interface ModelFailure {
  type: SessionErrorType;
  message: string;
  retryable: boolean;
}

/**
 * The SDK's session error kinds from a Messages API failure: 529 overloaded, 429 rate limited
 * (both retryable), 5xx and network failures request_failed (retryable), any other 4xx
 * request_failed for good (the request itself is wrong: retrying sends the same). A streamed
 * answer may also fail after its 200: an `error` event (no status; its type says which) or a
 * stream cut short, both worth another attempt.
 */
export function classifyModelFailure(err: unknown): ModelFailure {
  if (err instanceof APIError && err.status !== undefined) {
    const detail = err.message.slice(0, 500);
    if (err.status === 529) return { type: 'model_overloaded_error', message: `the model is overloaded: ${detail}`, retryable: true };
    if (err.status === 429) return { type: 'model_rate_limited_error', message: `the model API rate limited the request: ${detail}`, retryable: true };
    if (err.status >= 500) return { type: 'model_request_failed_error', message: `the model API failed: ${detail}`, retryable: true };
    return { type: 'model_request_failed_error', message: `the model API refused the request: ${detail}`, retryable: false };
  }
  if (err instanceof APIConnectionError) {
    return { type: 'model_request_failed_error', message: `the model API could not be reached: ${err.message.slice(0, 200)}`, retryable: true };
  }
  if (err instanceof APIError) return midStreamFailure(err);
  if (err instanceof AnthropicError) {
    return { type: 'model_request_failed_error', message: `the model's answer stopped: ${err.message.slice(0, 200)}`, retryable: true };
  }
  return { type: 'unknown_error', message: 'the model request failed unexpectedly', retryable: false };
}

/** An `error` event in the middle of a streamed answer, by the error type it names. */
function midStreamFailure(err: APIError): ModelFailure {
  const detail = err.message.slice(0, 500);
  const type = (err.error as { error?: { type?: string } } | undefined)?.error?.type;
  if (type === 'overloaded_error') return { type: 'model_overloaded_error', message: `the model is overloaded: ${detail}`, retryable: true };
  if (type === 'rate_limit_error') return { type: 'model_rate_limited_error', message: `the model API rate limited the request: ${detail}`, retryable: true };
  if (type === 'invalid_request_error') return { type: 'model_request_failed_error', message: `the model API refused the request: ${detail}`, retryable: false };
  return { type: 'model_request_failed_error', message: `the model API failed mid-answer: ${detail}`, retryable: true };
}

/**
 * How long to wait before retrying a failed request, or undefined when it is not retried: a
 * failure that retrying cannot fix, or `maxRetries` retries made already. The waits double from
 * `retryBaseMs` (attempt 0 is the first request).
 */
export function retryDelayMs(failure: ModelFailure, attempt: number, policy: { maxRetries: number; retryBaseMs: number }): number | undefined {
  if (!failure.retryable || attempt >= policy.maxRetries) return undefined;
  return policy.retryBaseMs * 2 ** attempt;
}

/** What a retryable failure records before the wait: the error, announced `retrying`, and the session rescheduled. */
export const retryingEvents = (failure: ModelFailure): RuntimeEventBody[] => [
  { type: 'session.error', error: { type: failure.type, message: failure.message, retry_status: { type: 'retrying' } } },
  { type: 'session.status_rescheduled' },
];

/** Without a configured key nothing can be asked: said once, clearly, and the session stops. */
export const NO_MODEL_CREDENTIALS: ModelFailure = {
  type: 'model_request_failed_error',
  message: 'no model API key is configured for the runtime (MODEL_API_KEY); the session cannot call its model',
  retryable: false,
};

/**
 * What a failure that ends the agent's turn records: the error, announced `exhausted`, and the
 * session idle with `retries_exhausted`. The SDK documents `exhausted` as "this turn is dead ...
 * the session returns to idle; client may send a new prompt", and `terminal` as "will transition
 * to terminated". The runtime never terminates a session for a failed request (a request the
 * model API refuses as invalid may well work after the client's next message, and a missing key
 * is the operator's to fix), so every such failure, retryable or not, is `exhausted`: the event
 * and the state agree.
 */
export const turnEndingError = (failure: ModelFailure): RuntimeEventBody[] => [
  { type: 'session.error', error: { type: failure.type, message: failure.message, retry_status: { type: 'exhausted' } } },
  { type: 'session.status_idle', stop_reason: { type: 'retries_exhausted' }, stop_details: null },
];
