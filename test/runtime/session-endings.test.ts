/**
 * How a session's turn, or the session, ends, through the real parts and the unchanged SDK: a
 * request the model API refuses is announced as the state it leaves (the SDK's `exhausted`: the
 * turn is dead, the session idle), never `terminal` beside an idle session; an archived session
 * is reported `terminated` (SDK 1.10.0) and nothing of it runs any more, its worker's tool included.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEachSdk, SDKS, withEnvironmentWorker, type SdkUnderTest } from '../support/sdk';
import { sessionLog, useRuntimeWorld } from '../support/runtime-world';
import { eventually } from '../support/eventually';
import { createAgent, createEnvironment } from '../support/fixtures';
import { processesRunning } from '../support/processes';
import { runtimeSettled } from '../support/runtime-settled';

/** The SDK whose client and worker the current block runs (each block sets it). */
let current: SdkUnderTest = SDKS[0]!;

const world = useRuntimeWorld();
const sdk = () => world.sdk(current.Anthropic);
const logOf = (sessionId: string) => sessionLog(sdk(), sessionId);

async function newSession() {
  const agent = await createAgent(world.api);
  const environment = await createEnvironment(world.api);
  return sdk().beta.sessions.create({ agent: agent.id, environment_id: environment.id });
}

describeEachSdk('how sessions end, seen through the SDK', (under) => {
  beforeAll(() => {
    current = under;
  });

  describe('a request the model API refuses as invalid', () => {
    test('is announced exhausted and the session rests idle, asking nothing more', async () => {
      const before = world.model.requests.length;
      world.model.reply({ status: 400, type: 'invalid_request_error', message: 'messages: the conversation is malformed' });
      const session = await newSession();
      await sdk().beta.sessions.events.send(session.id, { events: [{ type: 'user.message', content: [{ type: 'text', text: 'Hello' }] }] });
      await eventually('the session to rest', async () => ((await logOf(session.id)).at(-1)?.type === 'session.status_idle' ? true : undefined), {
        timeoutMs: 20_000,
        intervalMs: 50,
      });
      await runtimeSettled(world.stack);
      const log = await logOf(session.id);
      const error = log.find((e) => e.type === 'session.error')!;
      expect(error.error).toMatchObject({ type: 'model_request_failed_error', retry_status: { type: 'exhausted' } });
      expect(error.error.message).toContain('the conversation is malformed');
      expect(log.at(-1)).toMatchObject({ type: 'session.status_idle', stop_reason: { type: 'retries_exhausted' } });
      // The state the event announced: idle, and a new prompt may be sent.
      expect((await sdk().beta.sessions.retrieve(session.id)).status).toBe('idle');
      expect(world.model.requests.length - before).toBe(1);
    }, 60_000);
  });

  describe('an archived session', () => {
    test('is reported terminated (retrieve, list, its filter) and nothing of it runs: its worker stops its tool', async () => {
      const workdir = await mkdtemp(join(tmpdir(), 'agent-archive-'));
      const sleep = `sleep 30.${Math.floor(1000 + Math.random() * 8999)}`;
      world.model.reply({ content: [{ type: 'tool_use', id: 'toolu_s', name: 'bash', input: { command: sleep } }], stop_reason: 'tool_use', usage: { input_tokens: 10, output_tokens: 5 } });
      const agent = await createAgent(world.api, { tools: [{ type: 'agent_toolset_20260401' }] });
      const environment = await createEnvironment(world.api, { config: { type: 'self_hosted' } });
      const session = await sdk().beta.sessions.create({ agent: agent.id, environment_id: environment.id });
      const before = world.model.requests.length;
      try {
        await withEnvironmentWorker(sdk(), { environmentId: environment.id, environmentKey: world.key, workdir, maxIdleMs: 60_000 }, async () => {
          await sdk().beta.sessions.events.send(session.id, { events: [{ type: 'user.message', content: [{ type: 'text', text: 'Wait' }] }] });
          await eventually('the tool to be running', async () => ((await processesRunning(sleep)).length > 0 ? true : undefined), { timeoutMs: 30_000, intervalMs: 50 });
          expect((await sdk().beta.sessions.retrieve(session.id)).status).toBe('running');

          const archived = await sdk().beta.sessions.archive(session.id);
          expect(archived.status).toBe('terminated');
          expect((await sdk().beta.sessions.retrieve(session.id)).status).toBe('terminated');
          // The runtime hears of it and stops the worker, which kills its tool at its next heartbeat.
          await eventually('the tool process to be gone', async () => ((await processesRunning(sleep)).length === 0 ? true : undefined), { timeoutMs: 15_000, intervalMs: 50 });
          await eventually(
            'the work item to be stopped',
            async () => ((await sdk().beta.environments.work.list(environment.id)).data.every((w) => w.state === 'stopped') ? true : undefined),
            { timeoutMs: 15_000, intervalMs: 50 },
          );
          await runtimeSettled(world.stack);
          const log = await logOf(session.id);
          // Nothing was appended after the archive: the turn's last event is still its response's end.
          expect(log.at(-1)?.type).toBe('span.model_request_end');
          expect(log.some((e) => e.type === 'user.tool_result')).toBe(false);
          expect(world.model.requests.length - before).toBe(1);
          // It takes no input either.
          const refused = await sdk()
            .beta.sessions.events.send(session.id, { events: [{ type: 'user.message', content: [{ type: 'text', text: 'More' }] }] })
            .catch((err: unknown) => err);
          expect(refused).toBeInstanceOf(current.Anthropic.BadRequestError);
        });
      } finally {
        await rm(workdir, { recursive: true, force: true });
      }

      const listed = async (query: Record<string, unknown>) => {
        const ids: string[] = [];
        for await (const s of sdk().beta.sessions.list(query)) if (s.id === session.id) ids.push(s.status);
        return ids;
      };
      expect(await listed({ include_archived: true })).toEqual(['terminated']);
      expect(await listed({ include_archived: true, statuses: ['terminated'] })).toEqual(['terminated']);
      expect(await listed({ include_archived: true, statuses: ['running', 'idle'] })).toEqual([]);
      expect(await listed({})).toEqual([]);
    }, 90_000);
  });
});
