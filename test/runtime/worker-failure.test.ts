/**
 * A work item its worker fails never leaves the session waiting: the unchanged SDK worker, asked
 * to mount a memory store where something already is, fails the item with its
 * `SessionMemoryError` and stops it; the runtime closes the tool call no worker will run as
 * failed, says why in a `session.error`, and the session rests idle for the client's next word.
 * Each block also checks that the session's memory store resource carries the SDK's snapshot
 * (name, description, mount path) and that the store's instructions reached the model.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { describeEachSdk, SDKS, type SdkUnderTest } from '../support/sdk';
import { eventually } from '../support/eventually';
import { createAgent, createEnvironment, createMemoryStore, userMessage } from '../support/fixtures';
import { sessionLog, useRuntimeWorld } from '../support/runtime-world';

let current: SdkUnderTest = SDKS[0]!;
const world = useRuntimeWorld();
let workdir: string;
beforeAll(async () => {
  workdir = await mkdtemp(join(tmpdir(), 'worker-failure-'));
});
afterAll(() => rm(workdir, { recursive: true, force: true }));

const sdk = () => world.sdk(current.Anthropic);

describeEachSdk('a worker that fails its item', (under) => {
  beforeAll(() => {
    current = under;
  });

  test('ends in a session.error, the call answered as failed, and an idle session', async () => {
    const name = `taken ${randomUUID().slice(0, 8)}`;
    const store = await createMemoryStore(world.api, { name, description: 'Shared notes' });
    const agent = await createAgent(world.api, { tools: [{ type: 'agent_toolset_20260401' }] });
    const environment = await createEnvironment(world.api, { config: { type: 'self_hosted' } });
    const session = await sdk().beta.sessions.create({
      agent: agent.id,
      environment_id: environment.id,
      resources: [{ type: 'memory_store', memory_store_id: store.id, access: 'read_only', instructions: 'Consult before answering.' }],
    } as never);
    const mountPath = `/mnt/memory/${name.replace(' ', '-')}`;
    expect(session.resources[0]).toMatchObject({ type: 'memory_store', name, description: 'Shared notes', mount_path: mountPath, access: 'read_only' });
    // Something is already where the store mounts: the SDK worker refuses to sync over it.
    await mkdir(mountPath, { recursive: true });
    try {
      const asked = world.model.requests.length;
      world.model.reply({ content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'ls' } }], stop_reason: 'tool_use', usage: { input_tokens: 10, output_tokens: 5 } });
      await sdk().beta.sessions.events.send(session.id, { events: [userMessage('Look around') as never] });
      const stop = new AbortController();
      const worker = sdk().beta.environments.work.worker({ environmentId: environment.id, environmentKey: world.key, workdir, maxIdleMs: 300 });
      const running = worker.run(stop.signal).catch(() => undefined);
      try {
        const log = await eventually(
          'the session to rest after its worker failed',
          async () => {
            const events = await sessionLog(sdk(), session.id);
            return events.at(-1)?.type === 'session.status_idle' ? events : undefined;
          },
          { timeoutMs: 30_000, intervalMs: 100 },
        );
        expect(log.slice(-4).map((e) => e.type)).toEqual(['span.model_request_end', 'session.error', 'user.tool_result', 'session.status_idle']);
        const [, error, result, idle] = log.slice(-4);
        expect(error!.error).toMatchObject({ type: 'unknown_error', retry_status: { type: 'exhausted' } });
        expect(result).toMatchObject({ tool_use_id: log.find((e) => e.type === 'agent.tool_use')!.id, is_error: true });
        expect(idle!.stop_reason).toEqual({ type: 'retries_exhausted' });
      } finally {
        stop.abort();
        await running;
      }
      // The model was told of the store: where it is, that it is read-only, and what to do with it.
      const system = String(world.model.requests[asked]!.system);
      expect(system).toContain(`## ${name} (${mountPath}, read-only)\nShared notes\nConsult before answering.`);
    } finally {
      await rm(mountPath, { recursive: true, force: true });
    }
  });
});
