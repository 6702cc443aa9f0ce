/**
 * `user.interrupt` stops the running tool, through the real parts: the runtime drives a session
 * against a local Messages API server, the SDK's own EnvironmentWorker runs its bash tool on a
 * self-hosted environment, and an interrupt sent while `sleep` runs ends the turn: the runtime
 * stops the session's work item, the worker hears it at its next heartbeat (every 4 s at the
 * default lease of 8 s) and kills the tool. The session rests, asks the model nothing more, and a
 * later message gets a fresh work item, so tools run again. Every wait polls for a condition.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEachSdk, SDKS, withEnvironmentWorker, type SdkUnderTest } from '../support/sdk';
import { randomBase62 } from '@shared/ids/ids';
import { sessionLog, useRuntimeWorld } from '../support/runtime-world';
import { eventually } from '../support/eventually';
import { createAgent, createEnvironment } from '../support/fixtures';
import { processesRunning } from '../support/processes';
import { runtimeSettled } from '../support/runtime-settled';

/** The SDK whose client and worker the current block runs (each block sets it). */
let current: SdkUnderTest = SDKS[0]!;

let workdir: string;

const world = useRuntimeWorld();
beforeAll(async () => {
  workdir = await mkdtemp(join(tmpdir(), 'agent-interrupt-'));
});
afterAll(async () => {
  if (workdir) await rm(workdir, { recursive: true, force: true });
});

const sdk = () => world.sdk(current.Anthropic);
const logOf = (sessionId: string) => sessionLog(sdk(), sessionId);
const bash = (id: string, command: string) => ({
  content: [{ type: 'tool_use', id, name: 'bash', input: { command } }],
  stop_reason: 'tool_use' as const,
  usage: { input_tokens: 10, output_tokens: 5 },
});

describeEachSdk('interrupts, with the SDK\'s own worker', (under) => {
  beforeAll(() => {
    current = under;
  });

  describe('user.interrupt', () => {
    test('kills the running tool within 5 s; the session rests, asks the model nothing more; a later message runs tools again', async () => {
      const token = randomBase62(8);
      // A sleep of a length no other process has, so pgrep finds this one only.
      const sleep = `sleep 30.${Math.floor(1000 + Math.random() * 8999)}`;
      const started = join(workdir, `started-${token}`);
      const finished = join(workdir, `finished-${token}`);
      world.model.reply(bash('toolu_sleep', `touch ${started}; ${sleep}; touch ${finished}`));
      const agent = await createAgent(world.api, { tools: [{ type: 'agent_toolset_20260401' }] });
      const environment = await createEnvironment(world.api, { config: { type: 'self_hosted' } });
      const session = await sdk().beta.sessions.create({ agent: agent.id, environment_id: environment.id });
      const firstRequest = world.model.requests.length;

      await withEnvironmentWorker(sdk(), { environmentId: environment.id, environmentKey: world.key, workdir, maxIdleMs: 60_000 }, async () => {
      await sdk().beta.sessions.events.send(session.id, { events: [{ type: 'user.message', content: [{ type: 'text', text: 'Wait a while' }] }] });
      await eventually('the tool to be running', async () => (existsSync(started) && (await processesRunning(sleep)).length > 0 ? true : undefined), {
        timeoutMs: 30_000,
        intervalMs: 50,
      });

      const interruptedAt = Date.now();
      await sdk().beta.sessions.events.send(session.id, { events: [{ type: 'user.interrupt' }] });
      await eventually('the tool process to be gone', async () => ((await processesRunning(sleep)).length === 0 ? true : undefined), { timeoutMs: 10_000, intervalMs: 50 });
      expect(Date.now() - interruptedAt).toBeLessThan(5_000);
      expect(existsSync(finished)).toBe(false);

      await eventually('the session to rest', async () => ((await sdk().beta.sessions.retrieve(session.id)).status === 'idle' ? true : undefined), {
        timeoutMs: 10_000,
        intervalMs: 50,
      });
      await runtimeSettled(world.stack);
      const log = await logOf(session.id);
      // The turn ends with its call answered as stopped (so no later worker runs it again), and the
      // model was asked nothing after the interrupt.
      const call = log.find((e) => e.type === 'agent.tool_use')!;
      expect(log.slice(-3)).toMatchObject([
        { type: 'user.interrupt' },
        { type: 'user.tool_result', tool_use_id: call.id, is_error: true },
        { type: 'session.status_idle', stop_reason: { type: 'end_turn' } },
      ]);
      expect(JSON.stringify(log.at(-2)!.content)).toContain('interrupted');
      expect(world.model.requests.length - firstRequest).toBe(1);
      const items = (await sdk().beta.environments.work.list(environment.id)).data;
      expect(items.map((w) => w.state)).toEqual(['stopped']);

      // New input: a new turn, and a fresh work item for its tool.
      world.model.reply(bash('toolu_echo', `echo again-${token}`), {
        content: [{ type: 'text', text: 'Done.' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 10, output_tokens: 5 },
      });
      await sdk().beta.sessions.events.send(session.id, { events: [{ type: 'user.message', content: [{ type: 'text', text: 'Now echo' }] }] });
      const after = await eventually(
        'the second turn to end',
        async () => {
          const events = await logOf(session.id);
          return events.length > log.length && events.at(-1)?.type === 'session.status_idle' ? events : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 100 },
      );
      const results = after.filter((e) => e.type === 'user.tool_result');
      expect(results).toHaveLength(2);
      expect(JSON.stringify(results[1].content)).toContain(`again-${token}`);
      expect(existsSync(finished)).toBe(false);
      expect(world.model.requests.length - firstRequest).toBe(3);
      // The conversation stays valid: the stopped call is answered as interrupted before the new message.
      const second = JSON.stringify(world.model.requests[firstRequest + 1].messages);
      expect(second).toContain('this tool call was stopped');
      expect((await sdk().beta.environments.work.list(environment.id)).data).toHaveLength(2);
      });
    }, 90_000);
  });
});
