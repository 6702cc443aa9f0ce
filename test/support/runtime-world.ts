/**
 * The stack the runtime's end-to-end tests share: the backend services with the runtime pointed
 * at a local fake Messages API (none, to test a runtime with no model key), a tenant's key, and
 * its HTTP client. One definition, so every runtime suite starts the same world.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll } from 'bun:test';
import { apiClient, type ApiClient } from './api';
import { FakeModelApi } from './fake-model-api';
import { Stack, type BackendService } from './stack';

/** The model key the runtime is given: the fake takes any; the tests check it was sent. */
export const TEST_MODEL_KEY = 'sk-test-model-key';

export interface RuntimeWorld {
  stack: Stack;
  /** The fake Messages API, unless the world was started without a model. */
  model: FakeModelApi;
  key: string;
  api: ApiClient;
  stop(): Promise<void>;
}

export async function startRuntimeWorld(
  options: {
    services?: readonly BackendService[];
    withModel?: boolean;
    /** More environment for every service, and for the runtime alone (read when the world starts). */
    env?: () => Record<string, string>;
    runtimeEnv?: () => Record<string, string>;
    /** More environment for one backend service (the runtime's is runtimeEnv). */
    serviceEnv?: Partial<Record<BackendService, Record<string, string>>>;
  } = {},
): Promise<RuntimeWorld> {
  const model = options.withModel === false ? undefined : FakeModelApi.start();
  const modelEnv = model ? { MODEL_API_BASE_URL: model.url, MODEL_API_KEY: TEST_MODEL_KEY, MODEL_RETRY_BASE_MS: '10' } : {};
  const stack = await Stack.start({
    services: [...(options.services ?? ['catalog', 'deployments', 'vaults', 'runtime'])],
    env: { LOG_LEVEL: 'error', ...options.env?.() },
    serviceEnv: { ...options.serviceEnv, runtime: { ...modelEnv, ...options.runtimeEnv?.() } },
  });
  const key = (await stack.createKey()).secret;
  return {
    stack,
    model: model as FakeModelApi,
    key,
    api: apiClient(stack.url, key),
    stop: async () => {
      await stack.stop();
      model?.stop();
    },
  };
}

/** A started world as a suite reads it, with a client of its API for the tenant's key. */
export interface RuntimeWorldHandle extends Omit<RuntimeWorld, 'stop'> {
  /** An unchanged SDK client of the world (of the class given: a suite may run each SDK version). */
  sdk(Client?: typeof Anthropic): Anthropic;
}

/**
 * Starts a runtime world before the file's (or the describe block's) tests and stops it after them.
 * The handle reads the world started, so tests and hooks registered after this call may use it.
 */
export function useRuntimeWorld(options: Parameters<typeof startRuntimeWorld>[0] = {}): RuntimeWorldHandle {
  let started: RuntimeWorld | undefined;
  beforeAll(async () => {
    started = await startRuntimeWorld(options);
  }, 60_000);
  afterAll(async () => {
    await started?.stop();
  });
  const world = () => {
    if (!started) throw new Error('the runtime world is read before its beforeAll started it');
    return started;
  };
  return {
    get stack() {
      return world().stack;
    },
    get model() {
      return world().model;
    },
    get key() {
      return world().key;
    },
    get api() {
      return world().api;
    },
    sdk: (Client = Anthropic) => new Client({ baseURL: world().stack.url, apiKey: world().key, maxRetries: 0 }),
  };
}

/** A session's whole log, as the SDK lists it. */
export const sessionLog = async (client: Anthropic, sessionId: string) =>
  (await client.beta.sessions.events.list(sessionId, { limit: 1000 })).data as Array<Record<string, any>>;

/** A session's log after one message answered with one tool call, its result, and a last message. */
export const ONE_TOOL_TURN: string[] = [
  'user.message',
  'session.status_running',
  'span.model_request_start',
  'agent.tool_use',
  'span.model_request_end',
  'user.tool_result',
  'span.model_request_start',
  'agent.message',
  'span.model_request_end',
  'session.status_idle',
];
