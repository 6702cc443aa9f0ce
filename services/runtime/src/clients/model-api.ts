import Anthropic from '@anthropic-ai/sdk';
import type { Message, MessageCreateParamsNonStreaming, MessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { Logger } from '@shared/log/logger';
import type { RuntimeConfig } from '../config';
import { classifyModelFailure, retryDelayMs, type ModelFailure } from '../domain/model-errors';

/** Hears each event of an answer as the model streams it (message_start first, at every attempt). */
export type AnswerListener = (event: MessageStreamEvent) => void;

/**
 * The Messages API, through the official SDK: any endpoint that speaks it (MODEL_API_BASE_URL).
 * Every request is streamed: what the model writes can be shown while it writes (previews), and
 * a long answer never meets the non-streaming request's time limit; the answer is the stream's
 * final message, the same Message a non-streaming request returns.
 */
export interface ModelApi {
  /** False when no key is configured: the runtime says so in the session instead of calling. */
  readonly configured: boolean;
  create(params: MessageCreateParamsNonStreaming, signal: AbortSignal, listener?: AnswerListener): Promise<Message>;
}

export function modelApi(config: Pick<RuntimeConfig, 'MODEL_API_BASE_URL' | 'MODEL_API_KEY' | 'MODEL_TIMEOUT_MS'>): ModelApi {
  const client = config.MODEL_API_KEY
    ? new Anthropic({
        apiKey: config.MODEL_API_KEY,
        baseURL: config.MODEL_API_BASE_URL,
        timeout: config.MODEL_TIMEOUT_MS,
        // Retries are the runtime's own (bounded, each one announced in the session as rescheduled).
        maxRetries: 0,
      })
    : undefined;
  return {
    configured: client !== undefined,
    async create(params, signal, listener) {
      if (!client) throw new Error('no model API key configured');
      const stream = client.messages.stream(params, { signal });
      if (listener) stream.on('streamEvent', (event) => listener(event));
      return stream.finalMessage();
    },
  };
}

/** Waits between a request's retries; injected (never a sleep of its own) so tests drive the wait. */
export type Sleep = (ms: number) => Promise<void>;

/** The runtime's retries: up to `maxRetries` more attempts, waiting from `retryBaseMs` (doubling). */
export interface RetryPolicy {
  maxRetries: number;
  retryBaseMs: number;
  sleep: Sleep;
  /** Each failed attempt is logged here (the caller's logger names the session). */
  logger: Logger;
}

/**
 * What the caller says around each wait. Either answers false to give up the request (the
 * session's log moved on while it waited: the caller reads the session again).
 */
export interface RetryAnnouncements {
  /** A retryable failure, before its wait. */
  beforeWait(failure: ModelFailure): Promise<boolean>;
  /** After the wait, before the next attempt. */
  afterWait(): Promise<boolean>;
}

export type ModelOutcome =
  | { kind: 'answered'; message: Message }
  | { kind: 'failed'; failure: ModelFailure }
  /** An announcement gave the request up, or the caller stopped it (`stream.signal`). */
  | { kind: 'given_up' };

/** How the caller follows a request: hears its answer as it streams, may stop it. */
export interface RequestStream {
  listener?: AnswerListener;
  /** Aborts the request in flight (an interrupt): the outcome is `given_up`, never retried. */
  signal?: AbortSignal;
}

/**
 * One model request with the runtime's bounded retries (domain/model-errors.ts decides which
 * failures are retried and how long to wait); the caller announces each retry before its wait
 * and the resumption after it, so a client of the session always sees why nothing happens.
 */
export async function requestWithRetries(
  model: ModelApi,
  request: MessageCreateParamsNonStreaming,
  policy: RetryPolicy,
  announce: RetryAnnouncements,
  stream: RequestStream = {},
): Promise<ModelOutcome> {
  // MODEL_TIMEOUT_MS bounds each attempt in the client; the signal is only the caller's stop.
  const signal = stream.signal ?? new AbortController().signal;
  for (let attempt = 0; ; attempt++) {
    if (signal.aborted) return { kind: 'given_up' };
    try {
      return { kind: 'answered', message: await model.create(request, signal, stream.listener) };
    } catch (err) {
      if (signal.aborted) return { kind: 'given_up' };
      const failure = classifyModelFailure(err);
      policy.logger.warn('model request failed', { attempt, type: failure.type, retryable: failure.retryable });
      const wait = retryDelayMs(failure, attempt, policy);
      if (wait === undefined) return { kind: 'failed', failure };
      if (!(await announce.beforeWait(failure))) return { kind: 'given_up' };
      await policy.sleep(wait);
      if (!(await announce.afterWait())) return { kind: 'given_up' };
    }
  }
}
