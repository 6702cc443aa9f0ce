/**
 * Memory stores and skills reach a running session, end to end through the real parts and the
 * unchanged SDK, with the SDK's own worker: in process as an operator runs it (self_hosted), and in
 * the product's sandbox worker (cloud). The worker downloads the agent's skill under
 * `skills/<name>/` and the session's stores at their mount paths with the item's sessions token;
 * the agent reads the read-only store and writes into the read-write one; what it wrote is in the
 * store afterwards through `memories.list`, the read-only store is unchanged, and the server
 * itself refuses that token's writes to it. The stores' instructions and the skill's description
 * are in the model's system prompt.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type Anthropic from '@anthropic-ai/sdk';
import { describeEachSdk, SDKS, type SdkUnderTest } from '../support/sdk';
import { eventually } from '../support/eventually';
import { sdkFailure } from '../support/expect';
import { createAgent, createEnvironment, userMessage } from '../support/fixtures';
import { sessionLog, useRuntimeWorld } from '../support/runtime-world';

let current: SdkUnderTest = SDKS[0]!;
const world = useRuntimeWorld();
let workdir: string;
beforeAll(async () => {
  workdir = await mkdtemp(join(tmpdir(), 'memory-skills-'));
  await world.stack.startSandboxWorker({ SANDBOX_IDLE_MS: '300' });
});
afterAll(() => rm(workdir, { recursive: true, force: true }));

const sdk = () => world.sdk(current.Anthropic) as unknown as Anthropic;

const SKILL_MD = '---\nname: greeter\ndescription: Greets people by name in three languages\n---\n\nRun ./hello.sh NAME.\n';

/** A session whose agent loads the greeter skill and which mounts a read-write and a read-only store. */
async function sessionWithMemoryAndSkill(environmentType: 'self_hosted' | 'cloud') {
  const tag = randomUUID().slice(0, 8);
  const client = sdk();
  const notes = await client.beta.memoryStores.create({ name: `notes ${tag}`, description: 'What the agent learned' });
  const policies = await client.beta.memoryStores.create({ name: `policies ${tag}`, description: 'House rules' });
  await client.beta.memoryStores.memories.create(policies.id, { path: '/refunds.md', content: 'Refunds within 30 days.' });
  const skill = await client.beta.skills.create({
    display_name: `greeter ${tag}`,
    files: [new File([SKILL_MD], 'greeter/SKILL.md', { type: 'text/markdown' }), new File(['#!/bin/sh\necho "hello $1"\n'], 'greeter/hello.sh')],
  });
  const agent = await createAgent(world.api, { tools: [{ type: 'agent_toolset_20260401' }], skills: [{ type: 'custom', skill_id: skill.id, version: 'latest' }] });
  const environment = await createEnvironment(world.api, { config: { type: environmentType } });
  const session = await client.beta.sessions.create({
    agent: agent.id,
    environment_id: environment.id,
    resources: [
      { type: 'memory_store', memory_store_id: notes.id, instructions: 'Write down what you learn.' },
      { type: 'memory_store', memory_store_id: policies.id, access: 'read_only', instructions: 'Check the rules first.' },
    ],
  } as never);
  const [notesMount, policiesMount] = (session.resources as Array<{ mount_path: string }>).map((r) => r.mount_path);
  return { notes, policies, environment, session, notesMount: notesMount!, policiesMount: policiesMount! };
}

/** The agent's one tool call: read the read-only store and the skill, write into both stores. */
const script = (notesMount: string, policiesMount: string) =>
  [
    `cat ${policiesMount}/refunds.md`,
    'cat skills/greeter/SKILL.md | head -3',
    'sh skills/greeter/hello.sh world',
    `mkdir -p ${notesMount}/customers && echo "Ada prefers email" > ${notesMount}/customers/ada.md`,
    `echo sneaky > ${policiesMount}/sneaky.md 2>/dev/null; true`,
  ].join(' && ');

async function runTurn(setup: Awaited<ReturnType<typeof sessionWithMemoryAndSkill>>, serve: () => Promise<() => Promise<void>>) {
  const asked = world.model.requests.length;
  world.model.reply(
    { content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: script(setup.notesMount, setup.policiesMount) } }], stop_reason: 'tool_use', usage: { input_tokens: 10, output_tokens: 5 } },
    { content: [{ type: 'text', text: 'Noted.' }], stop_reason: 'end_turn', usage: { input_tokens: 20, output_tokens: 5 } },
  );
  await sdk().beta.sessions.events.send(setup.session.id, { events: [userMessage('Greet the world and remember Ada') as never] });
  const stopServing = await serve();
  try {
    const log = await eventually(
      'the turn to end',
      async () => {
        const events = await sessionLog(sdk(), setup.session.id);
        const last = events.at(-1);
        return last?.type === 'session.status_idle' && last.stop_reason?.type === 'end_turn' ? events : undefined;
      },
      { timeoutMs: 45_000, intervalMs: 100 },
    );
    const result = log.find((e) => e.type === 'user.tool_result')!;
    const output = (result.content as Array<{ text: string }>).map((c) => c.text).join('');
    expect(result.is_error ?? false).toBe(false);
    expect(output).toContain('Refunds within 30 days.');
    expect(output).toContain('name: greeter');
    expect(output).toContain('hello world');
    // What the agent wrote reaches the read-write store once the worker syncs (at the latest when it lets the item go).
    await eventually(
      'the note to be synced',
      async () => {
        const paths = [];
        for await (const m of sdk().beta.memoryStores.memories.list(setup.notes.id)) paths.push(m.path);
        return paths.includes('/customers/ada.md') ? true : undefined;
      },
      { timeoutMs: 45_000, intervalMs: 200 },
    );
  } finally {
    await stopServing();
  }
  const policies = [];
  for await (const m of sdk().beta.memoryStores.memories.list(setup.policies.id)) policies.push(m.path);
  expect(policies).toEqual(['/refunds.md']);
  const ada = (await sdk().beta.memoryStores.memories.list(setup.notes.id, { view: 'full' } as never)).data.find((m) => m.path === '/customers/ada.md');
  expect((ada as { content?: string }).content).toBe('Ada prefers email\n');
  // The model was told of both stores and the skill.
  const system = String(world.model.requests[asked]!.system);
  expect(system).toContain(`(${setup.notesMount}, read-write)\nWhat the agent learned\nWrite down what you learned.`.replace('learned.', 'learn.'));
  expect(system).toContain(`(${setup.policiesMount}, read-only)\nHouse rules\nCheck the rules first.`);
  expect(system).toContain('- skills/greeter/: Greets people by name in three languages');
}

describeEachSdk('memory stores and skills in a running session', (under) => {
  beforeAll(() => {
    current = under;
  });

  test("self-hosted: the SDK's own worker, with the item's sessions token", async () => {
    const setup = await sessionWithMemoryAndSkill('self_hosted');
    await runTurn(setup, async () => {
      const stop = new AbortController();
      const worker = sdk().beta.environments.work.worker({ environmentId: setup.environment.id, environmentKey: world.key, workdir, maxIdleMs: 300 });
      const running = worker.run(stop.signal).catch(() => undefined);
      return async () => {
        stop.abort();
        await running;
      };
    });
  }, 120_000);

  test("cloud: the product's sandbox worker", async () => {
    const setup = await sessionWithMemoryAndSkill('cloud');
    await runTurn(setup, async () => async () => undefined);
  }, 120_000);
});

describe('the server refuses what the worker would refuse', () => {
  test("a sessions token writes only to its session's read-write stores, reads only its own", async () => {
    current = SDKS[0]!;
    const setup = await sessionWithMemoryAndSkill('self_hosted');
    const other = await sdk().beta.memoryStores.create({ name: `other ${randomUUID().slice(0, 8)}` });
    world.model.reply({ content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'true' } }], stop_reason: 'tool_use', usage: { input_tokens: 1, output_tokens: 1 } });
    await sdk().beta.sessions.events.send(setup.session.id, { events: [userMessage('Wait') as never] });
    // Take the item as a worker does, and use its token.
    const work = await eventually('the work item', async () => (await sdk().beta.environments.work.poll(setup.environment.id, { block_ms: 1000 } as never)) ?? undefined, {
      timeoutMs: 20_000,
    });
    const token = JSON.parse(Buffer.from((work as { secret: string }).secret, 'base64url').toString()).sessions_token as string;
    const asSession = new current.Anthropic({ baseURL: world.stack.url, apiKey: null, authToken: token, maxRetries: 0 }) as unknown as Anthropic;
    const listed = await asSession.beta.memoryStores.memories.list(setup.policies.id);
    expect(listed.data.map((m) => m.path)).toEqual(['/refunds.md']);
    const created = await asSession.beta.memoryStores.memories.create(setup.notes.id, { path: '/from-token.md', content: 'ok' });
    expect(created.path).toBe('/from-token.md');
    // Recorded as the session's write, not as some key's.
    const [version] = (await sdk().beta.memoryStores.memoryVersions.list(setup.notes.id, { memory_id: created.id } as never)).data;
    expect(version?.created_by).toEqual({ type: 'session_actor', session_id: setup.session.id });
    const readOnly = await sdkFailure(asSession.beta.memoryStores.memories.create(setup.policies.id, { path: '/x.md', content: 'no' }));
    expect(readOnly.status).toBe(403);
    expect(readOnly.error.error.message).toBe(`memory store '${setup.policies.id}' is mounted read-only in session '${setup.session.id}'`);
    expect((await sdkFailure(asSession.beta.memoryStores.memories.list(other.id))).status).toBe(403);
    expect((await sdkFailure(asSession.beta.memoryStores.memoryVersions.list(setup.notes.id))).status).toBe(403);
    expect((await sdkFailure(asSession.beta.skills.list())).status).toBe(403);
  }, 60_000);
});
