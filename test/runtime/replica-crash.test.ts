/**
 * A runtime replica killed (SIGKILL, a separate process) in the middle of a turn: another replica
 * takes the session over once the dead one's lease and message lapse, sends the interrupted
 * model request again under the same start span, and every event of the turn is recorded once.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Subprocess } from 'bun';
import { join } from 'node:path';
import { apiClient, type ApiClient } from '../support/api';
import { eventually } from '../support/eventually';
import { expectOk } from '../support/expect';
import { FakeModelApi } from '../support/fake-model-api';
import { createAgent, createEnvironment, userMessage } from '../support/fixtures';
import { Stack } from '../support/stack';

const root = join(import.meta.dir, '..', '..');
const RUNTIME_ENV = { MODEL_API_KEY: 'sk-test-model-key', RUNTIME_LEASE_MS: '2000', RUNTIME_ACK_WAIT_MS: '2000', MODEL_RETRY_BASE_MS: '10' };

let stack: Stack;
let model: FakeModelApi;
let api: ApiClient;
let replica: Subprocess<'ignore', 'pipe', 'pipe'> | undefined;

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

/** A runtime replica in its own process, as in production, on the stack's bus and database. */
async function spawnReplica(): Promise<Subprocess<'ignore', 'pipe', 'pipe'>> {
  const proc = Bun.spawn(['bun', 'services/runtime/src/main.ts'], {
    cwd: root,
    env: { ...process.env, ...stack.env('runtime'), LOG_LEVEL: 'info', RUNTIME_WORKER_ID: 'doomed' } as Record<string, string>,
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const reader = proc.stdout.getReader();
  let out = '';
  const deadline = Date.now() + 30_000;
  while (!/service started/.test(out)) {
    if (Date.now() > deadline) throw new Error(`runtime replica did not start: ${out.slice(-500)}`);
    const { value, done } = await reader.read();
    if (done) throw new Error(`runtime replica exited: ${out.slice(-500)}`);
    out += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return proc;
}

test('a replica killed mid-turn: another finishes the session, the request is sent again, no event is lost or doubled', async () => {
  replica = await spawnReplica();
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
  // Nothing more comes afterwards (the held reply went to a dead process).
  await Bun.sleep(1000);
  const after = expectOk(await api('GET', `/v1/sessions/${session.id}/events`, { query: { limit: '100' } }));
  expect(after.data).toHaveLength(log.length);
}, 90_000);
