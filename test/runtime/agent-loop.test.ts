/**
 * Sessions that run, end to end through the real parts: a deployment fires on its schedule (a
 * ManualClock), the runtime drives the session against a local Messages API server (scripted
 * replies), the SDK's own, unchanged EnvironmentWorker serves the agent toolset's bash tool on a
 * self-hosted environment through the gateway, and the log shows the whole exchange in order.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEachSdk, SDKS, withEnvironmentWorker, type SdkUnderTest } from '../support/sdk';
import { eventually } from '../support/eventually';
import { expectOk } from '../support/expect';
import { FakeModelApi } from '../support/fake-model-api';
import { ONE_TOOL_TURN } from '../support/runtime-world';
import { createAgent, createDeployment, createEnvironment, userMessage } from '../support/fixtures';
import { LifecycleStack, type Tenant$, type Worker } from '../support/lifecycle-stack';

/** The SDK whose client and worker the current block runs (each block sets it). */
let current: SdkUnderTest = SDKS[0]!;

const MODEL_KEY = 'sk-test-model-key-not-a-secret';
const EVERY_5_MINUTES = { type: 'cron', expression: '*/5 * * * *', timezone: 'UTC' };

let world: LifecycleStack;
let scheduler: Worker;
let me: Tenant$;
let key: string;
let model: FakeModelApi;
let workdir: string;

beforeAll(async () => {
  model = FakeModelApi.start();
  world = await LifecycleStack.start({
    start: '2026-06-01T08:00:00.000Z',
    env: { JITTER_MAX_MS: '0' },
    runtime: { MODEL_API_BASE_URL: model.url, MODEL_API_KEY: MODEL_KEY, MODEL_RETRY_BASE_MS: '10' },
  });
  scheduler = await world.startWorker();
  const created = await world.stack.createKey();
  key = created.secret;
  me = { api: (await import('../support/api')).apiClient(world.stack.url, key), tenant: created.tenant };
  workdir = await mkdtemp(join(tmpdir(), 'agent-worker-'));
}, 60_000);
afterAll(async () => {
  await world?.stop();
  model?.stop();
  if (workdir) await rm(workdir, { recursive: true, force: true });
});

const sdk = () => new current.Anthropic({ baseURL: world.stack.url, apiKey: key, maxRetries: 0 });

/** Runs the SDK's environment worker on `environmentId` until `until` resolves. */
const withWorker = <T>(environmentId: string, until: () => Promise<T>): Promise<T> =>
  withEnvironmentWorker(sdk(), { environmentId, environmentKey: key, workdir, maxIdleMs: 300 }, until);

async function scheduledSession(agentOverrides: Record<string, unknown>, deploymentOverrides: Record<string, unknown> = {}) {
  const agent = await createAgent(me.api, { tools: [{ type: 'agent_toolset_20260401' }], ...agentOverrides });
  const environment = await createEnvironment(me.api, { config: { type: 'self_hosted' } });
  const deployment = await createDeployment(me.api, {
    name: 'nightly',
    agent: agent.id,
    environment_id: environment.id,
    initial_events: [userMessage('List the workdir')],
    schedule: EVERY_5_MINUTES,
    ...deploymentOverrides,
  });
  await world.eventsSettled();
  const next = new Date(Math.floor(world.clock.now().getTime() / 300_000) * 300_000 + 300_000).toISOString();
  await world.runUntil(next, 60_000);
  const runs = expectOk(await me.api('GET', '/v1/deployment_runs', { query: { deployment_id: deployment.id } })).data;
  expect(runs).toHaveLength(1);
  // One session per test: the next test's clock moves must not fire this deployment again.
  expectOk(await me.api('POST', `/v1/deployments/${deployment.id}/archive`));
  return { sessionId: runs[0].session_id as string, environmentId: environment.id as string };
}

const events = async (sessionId: string) => {
  const page = await sdk().beta.sessions.events.list(sessionId, { limit: 1000 });
  return page.data;
};

describeEachSdk('sessions that run, with the SDK\'s own worker', (under) => {
  beforeAll(() => {
    current = under;
  });

  describe('a scheduled session runs', () => {
    test('model, worker-run bash tool, tool result back to the model, idle at end_turn; the log in order', async () => {
      const before = model.requests.length;
      model.reply(
        {
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'echo hello-from-worker' } }],
          stop_reason: 'tool_use',
          usage: { input_tokens: 100, output_tokens: 20 },
        },
        { content: [{ type: 'text', text: 'The workdir says hello.' }], stop_reason: 'end_turn', usage: { input_tokens: 150, output_tokens: 10 } },
      );
      const { sessionId, environmentId } = await scheduledSession({});
      const session = await withWorker(environmentId, () =>
        eventually(
          'the session to end its turn',
          async () => {
            const s = await sdk().beta.sessions.retrieve(sessionId);
            const log = await events(sessionId);
            return s.status === 'idle' && log.at(-1)?.type === 'session.status_idle' ? s : undefined;
          },
          { timeoutMs: 30_000, intervalMs: 100 },
        ),
      );
      const log = await events(sessionId);
      expect(log.map((e): string => e.type)).toEqual(ONE_TOOL_TURN);
      const toolUse = log[3] as { id: string; name: string; input: unknown };
      expect(toolUse.name).toBe('bash');
      const result = log[5] as { tool_use_id: string; content: Array<{ type: string; text: string }> };
      expect(result.tool_use_id).toBe(toolUse.id);
      expect(JSON.stringify(result.content)).toContain('hello-from-worker');
      expect((log[9] as { stop_reason: { type: string } }).stop_reason).toEqual({ type: 'end_turn' });
      // The model got the tool's output as the answer to its own call.
      expect(model.requests.length - before).toBe(2);
      const second = model.requests[before + 1];
      expect(JSON.stringify(second.messages)).toContain('hello-from-worker');
      expect(second.tools?.map((t) => (t as { name: string }).name)).toContain('bash');
      // Prompt caching: the last tool and the conversation's last block are the request's breakpoints.
      expect(second.tools?.at(-1)).toMatchObject({ cache_control: { type: 'ephemeral' } });
      const lastBlocks = second.messages.at(-1)!.content as Array<{ cache_control?: unknown }>;
      expect(lastBlocks.at(-1)!.cache_control).toEqual({ type: 'ephemeral' });
      expect(model.apiKeys.every((k) => k === MODEL_KEY)).toBe(true);
      // Usage: 250 input, 30 output tokens at 500 and 2500 cents a million: 0.2 cents, shown rounded up.
      expect(session.usage.input_tokens).toBe(250);
      expect(session.usage.output_tokens).toBe(30);
      expect(session.usage.list_cost).toEqual({ currency: 'USD', amount: '1' });
    }, 60_000);

    test('a budget reached by the first response: exactly one model request, idle with budget_reached', async () => {
      const before = model.requests.length;
      // 1,000 input and 1,000 output tokens: 0.5 + 2.5 = 3 cents, the whole budget.
      model.reply({
        content: [{ type: 'tool_use', id: 'toolu_2', name: 'bash', input: { command: 'echo spent' } }],
        stop_reason: 'tool_use',
        usage: { input_tokens: 1000, output_tokens: 1000 },
      });
      const { sessionId, environmentId } = await scheduledSession({}, { budget: { type: 'limit', max_list_cost: { currency: 'USD', amount: '3' } } });
      const session = await withWorker(environmentId, () =>
        eventually(
          'the session to stop at its budget',
          async () => {
            const log = await events(sessionId);
            const last = log.at(-1) as { type: string; stop_reason?: { type: string } } | undefined;
            return last?.type === 'session.status_idle' && last.stop_reason?.type === 'budget_reached' ? sdk().beta.sessions.retrieve(sessionId) : undefined;
          },
          { timeoutMs: 30_000, intervalMs: 100 },
        ),
      );
      expect(model.requests.length - before).toBe(1);
      expect(session.usage.list_cost).toEqual({ currency: 'USD', amount: '3' });
      expect(session.usage.input_tokens).toBe(1000);
      const types = (await events(sessionId)).map((e) => e.type);
      expect(types.filter((t) => t === 'span.model_request_start')).toHaveLength(1);
      expect(types.slice(-2)).toEqual(['user.tool_result', 'session.status_idle']);
    }, 60_000);
  });

  describe('an environment worker', () => {
    test('polling an empty queue gets null (204 No Content), which the SDK poller takes for "nothing yet"', async () => {
      const environment = await createEnvironment(me.api, { config: { type: 'self_hosted' } });
      const res = await me.api('GET', `/v1/environments/${environment.id}/work/poll`);
      expect({ status: res.status, body: res.body }).toEqual({ status: 204, body: undefined });
      expect(await sdk().beta.environments.work.poll(environment.id)).toBeNull();
    });
  });
});
