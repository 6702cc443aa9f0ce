/**
 * How a session's turn, or the session, ends, through the real parts and the unchanged SDK: a
 * request the model API refuses is announced as the state it leaves (the SDK's `exhausted`: the
 * turn is dead, the session idle), never `terminal` beside an idle session.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import Anthropic from '@anthropic-ai/sdk';
import { apiClient, type ApiClient } from '../support/api';
import { eventually } from '../support/eventually';
import { FakeModelApi } from '../support/fake-model-api';
import { createAgent, createEnvironment } from '../support/fixtures';
import { runtimeSettled } from '../support/runtime-settled';
import { Stack } from '../support/stack';

let stack: Stack;
let model: FakeModelApi;
let api: ApiClient;
let key: string;

beforeAll(async () => {
  model = FakeModelApi.start();
  stack = await Stack.start({
    services: ['catalog', 'deployments', 'vaults', 'runtime'],
    env: { LOG_LEVEL: 'error' },
    serviceEnv: { runtime: { MODEL_API_BASE_URL: model.url, MODEL_API_KEY: 'sk-test-model-key', MODEL_RETRY_BASE_MS: '10' } },
  });
  key = (await stack.createKey()).secret;
  api = apiClient(stack.url, key);
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  model?.stop();
});

const sdk = () => new Anthropic({ baseURL: stack.url, apiKey: key, maxRetries: 0 });
const logOf = async (sessionId: string) => (await sdk().beta.sessions.events.list(sessionId, { limit: 1000 })).data as Array<Record<string, any>>;

async function newSession() {
  const agent = await createAgent(api);
  const environment = await createEnvironment(api);
  return sdk().beta.sessions.create({ agent: agent.id, environment_id: environment.id });
}

describe('a request the model API refuses as invalid', () => {
  test('is announced exhausted and the session rests idle, asking nothing more', async () => {
    const before = model.requests.length;
    model.reply({ status: 400, type: 'invalid_request_error', message: 'messages: the conversation is malformed' });
    const session = await newSession();
    await sdk().beta.sessions.events.send(session.id, { events: [{ type: 'user.message', content: [{ type: 'text', text: 'Hello' }] }] });
    await eventually('the session to rest', async () => ((await logOf(session.id)).at(-1)?.type === 'session.status_idle' ? true : undefined), {
      timeoutMs: 20_000,
      intervalMs: 50,
    });
    await runtimeSettled(stack);
    const log = await logOf(session.id);
    const error = log.find((e) => e.type === 'session.error')!;
    expect(error.error).toMatchObject({ type: 'model_request_failed_error', retry_status: { type: 'exhausted' } });
    expect(error.error.message).toContain('the conversation is malformed');
    expect(log.at(-1)).toMatchObject({ type: 'session.status_idle', stop_reason: { type: 'retries_exhausted' } });
    // The state the event announced: idle, and a new prompt may be sent.
    expect((await sdk().beta.sessions.retrieve(session.id)).status).toBe('idle');
    expect(model.requests.length - before).toBe(1);
  }, 60_000);
});
