/**
 * A runtime replica killed (SIGKILL, a separate process) in the middle of a turn: another replica
 * takes the session over once the dead one's lease and message lapse, sends the interrupted
 * model request again under the same start span, and every event of the turn is recorded once.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { apiClient, type ApiClient } from '../support/api';
import { eventually } from '../support/eventually';
import { expectOk } from '../support/expect';
import { FakeModelApi } from '../support/fake-model-api';
import { createAgent, createEnvironment, userMessage } from '../support/fixtures';
import { spawnReplica, type ServiceProcess } from '../support/processes';
import { consumerSettled, outboxRelayed } from '../support/settled';
import { Stack } from '../support/stack';
import { outbox as deploymentsOutbox } from '../../services/deployments/src/db/schema';
import { loadRuntimeConfig } from '../../services/runtime/src/config';

const RUNTIME_ENV = { MODEL_API_KEY: 'sk-test-model-key', RUNTIME_LEASE_MS: '2000', RUNTIME_ACK_WAIT_MS: '2000', MODEL_RETRY_BASE_MS: '10' };

let stack: Stack;
let model: FakeModelApi;
let api: ApiClient;
let replica: ServiceProcess | undefined;

beforeAll(async () => {
  model = FakeModelApi.start();
  stack = await Stack.start({ env: { LOG_LEVEL: 'error' }, serviceEnv: { runtime: { ...RUNTIME_ENV, MODEL_API_BASE_URL: model.url } } });
  api = apiClient(stack.url, (await stack.createKey()).secret);
}, 60_000);
afterAll(async () => {
  replica?.kill('SIGKILL');
  await stack?.stop();
  model?.stop();
});

test('a replica killed mid-turn: another finishes the session, the request is sent again, no event is lost or doubled', async () => {
  replica = (await spawnReplica(stack, 'runtime', { RUNTIME_WORKER_ID: 'doomed' })).proc;
  // The first request is held: the replica that sent it dies waiting for it.
  const releaseFirst = model.replyHeld({ content: [{ type: 'text', text: 'never recorded' }], stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 1 } });
  model.reply({ content: [{ type: 'text', text: 'Done after the crash.' }], stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 5 } });

  const agent = await createAgent(api);
  const environment = await createEnvironment(api);
  const session = expectOk(
    await api('POST', '/v1/sessions', { body: { agent: agent.id, environment_id: environment.id, initial_events: [userMessage('Report')] } }),
  );
  await model.received(1);
  replica.kill('SIGKILL');
  await replica.exited;
  replica = undefined;

  await stack.startService('runtime');
  const log = await eventually(
    'another replica to finish the session',
    async () => {
      const page = expectOk(await api('GET', `/v1/sessions/${session.id}/events`, { query: { limit: '100' } }));
      const last = page.data.at(-1);
      return last?.type === 'session.status_idle' ? page.data : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 100 },
  );
  releaseFirst();
  expect(model.requests).toHaveLength(2);
  expect(JSON.stringify(model.requests[1].messages)).toBe(JSON.stringify(model.requests[0].messages));
  expect(log.map((e: { type: string }) => e.type)).toEqual([
    'user.message',
    'session.status_running',
    'span.model_request_start',
    'agent.message',
    'span.model_request_end',
    'session.status_idle',
  ]);
  expect(log[4].model_request_start_id).toBe(log[2].id);
  expect(log[3].content).toEqual([{ type: 'text', text: 'Done after the crash.' }]);
  const ids = log.map((e: { id: string }) => e.id);
  expect(new Set(ids).size).toBe(ids.length);
  // Nothing more comes afterwards (the held reply went to a dead process): once every session
  // notice is published and handled, and none is left unacknowledged (the dead replica's
  // included), no replica has anything left to drive, so the log is final.
  await outboxRelayed(stack.service('deployments'), deploymentsOutbox, 'deployments');
  const config = loadRuntimeConfig(stack.env('runtime'));
  await consumerSettled(stack.service('runtime').nc, config.BUS_PREFIX, 'sessions', config.RUNTIME_CONSUMER_NAME, { timeoutMs: 30_000 });
  const after = expectOk(await api('GET', `/v1/sessions/${session.id}/events`, { query: { limit: '100' } }));
  expect(after.data).toHaveLength(log.length);
}, 90_000);
