import Anthropic from '@anthropic-ai/sdk';
import type { Message, MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import type { RuntimeConfig } from '../config';

/** The Messages API, through the official SDK: any endpoint that speaks it (MODEL_API_BASE_URL). */
export interface ModelApi {
  /** False when no key is configured: the runtime says so in the session instead of calling. */
  readonly configured: boolean;
  create(params: MessageCreateParamsNonStreaming, signal: AbortSignal): Promise<Message>;
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
    create(params, signal) {
      if (!client) throw new Error('no model API key configured');
      return client.messages.create(params, { signal });
    },
  };
}
