/**
 * A session on a cloud environment runs, end to end through the real parts: the runtime drives it
 * against a local Messages API server (scripted replies), queues its work item in the cloud pool,
 * a sandbox worker of the stack claims it and starts a real process in a fresh scratch directory
 * running the SDK's own EnvironmentWorker.handleItem(), which runs the bash tool there and sends
 * the result through the gateway with the item's sessions token; the model gets the result, the
 * session ends its turn, the process stops the item, and its directory is removed.
 */
import { beforeAll, expect, test } from 'bun:test';
import { readdir } from 'node:fs/promises';
import { eventually } from '../support/eventually';
import { expectOk } from '../support/expect';
import { createAgent, createEnvironment, userMessage } from '../support/fixtures';
import type { StackSandboxWorker } from '../support/stack';
import { ONE_TOOL_TURN, useRuntimeWorld } from '../support/runtime-world';

/** A process the tool leaves running, detached from its shell's group and session: it must not outlive the session. */
const LEFT_RUNNING = '(setsid sleep 3031 </dev/null >/dev/null 2>&1 &)';
const stillRunning = () => Bun.spawnSync(['pgrep', '-f', 'sleep 3031']).stdout.toString().trim();

let worker: StackSandboxWorker;

const world = useRuntimeWorld();
const sdk = () => world.sdk();
beforeAll(async () => {
  // A short idle window: the session's process stops its item soon after the turn ends.
  worker = await world.stack.startSandboxWorker({ SANDBOX_IDLE_MS: '300' });
}, 60_000);

test('the bash tool runs in a sandbox process; the model gets its output; the item ends stopped and the scratch directory is gone', async () => {
  world.model.reply(
    {
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: LEFT_RUNNING + '; echo "hello from $(basename "$PWD") as home $HOME"; tr "\\0" "\\n" < /proc/$PPID/environ | cut -d= -f1 | sort' } }],
      stop_reason: 'tool_use',
      usage: { input_tokens: 100, output_tokens: 20 },
    },
    { content: [{ type: 'text', text: 'The sandbox said hello.' }], stop_reason: 'end_turn', usage: { input_tokens: 150, output_tokens: 10 } },
  );
  const agent = await createAgent(world.api, { tools: [{ type: 'agent_toolset_20260401' }] });
  const environment = await createEnvironment(world.api);
  expect(environment.config.type).toBe('cloud');
  const session = expectOk(
    await world.api('POST', '/v1/sessions', { body: { agent: agent.id, environment_id: environment.id, initial_events: [userMessage('Say hello from the sandbox')] } }),
  );

  const log = await eventually(
    'the session to end its turn',
    async () => {
      const events = (await sdk().beta.sessions.events.list(session.id, { limit: 1000 })).data;
      const last = events.at(-1) as { type: string; stop_reason?: { type: string } } | undefined;
      return last?.type === 'session.status_idle' && last.stop_reason?.type === 'end_turn' ? events : undefined;
    },
    { timeoutMs: 45_000, intervalMs: 100 },
  );
  expect(log.map((e): string => e.type)).toEqual(ONE_TOOL_TURN);
  const toolUse = log[3] as { id: string; name: string };
  const result = log[5] as { tool_use_id: string; content: Array<{ type: string; text: string }> };
  expect(toolUse.name).toBe('bash');
  expect(result.tool_use_id).toBe(toolUse.id);
  const output = result.content.map((c) => c.text).join('');
  // Its own work directory in its sandbox, which is also its HOME.
  expect(output).toContain('hello from workspace as home /workspace');
  // The session's process (the shell's parent) has its work item, the gateway, PATH, HOME and the
  // proxy settings and the CA bundle in its environment, and nothing of the worker's own (NATS identity, database, keys).
  const names = output.split('\n').filter((line) => /^[A-Z_][A-Z0-9_]*$/.test(line));
  expect(names).toEqual([
    'ANTHROPIC_BASE_URL',
    'ANTHROPIC_ENVIRONMENT_ID',
    'ANTHROPIC_SESSION_ID',
    'ANTHROPIC_WORK_ID',
    'ANTHROPIC_WORK_SECRET',
    // The machine's CA bundle, for every tool that reads one of these.
    'CURL_CA_BUNDLE',
    'GIT_SSL_CAINFO',
    'HOME',
    'HTTPS_PROXY',
    'HTTP_PROXY',
    'LANG',
    'NODE_EXTRA_CA_CERTS',
    'NO_PROXY',
    'PATH',
    'PIP_CERT',
    // bwrap's --chdir sets it.
    'PWD',
    'REQUESTS_CA_BUNDLE',
    'SANDBOX_EGRESS_SOCKET',
    'SSL_CERT_FILE',
  ]);

  // The model got the tool's output as the answer to its own call.
  expect(world.model.requests).toHaveLength(2);
  expect(JSON.stringify(world.model.requests[1]!.messages)).toContain('hello from workspace');

  const item = await eventually(
    'the session process to stop its work item',
    async () => {
      const [work] = (await sdk().beta.environments.work.list(environment.id)).data;
      return work?.state === 'stopped' ? work : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 100 },
  );
  expect(item.data.id).toBe(session.id);
  await eventually('the sandbox worker to finish the session', async () => ((await worker.metrics.snapshot()).sessions.served === 1 ? true : undefined), {
    timeoutMs: 20_000,
  });
  expect(await worker.metrics.snapshot()).toMatchObject({ busy: 0, sessions: { served: 1, failed: 0, timed_out: 0, killed: 0 } });
  // Only the worker's own state is left (the bundled program, the uid leases): no session directory.
  expect((await readdir(worker.root)).filter((name) => !name.startsWith('.'))).toEqual([]);
  expect(stillRunning()).toBe('');
}, 90_000);

test('an interrupt kills the running tool within 5 s, and what it left running when the session process ends; the item ends stopped', async () => {
  const requests = world.model.requests.length;
  const foreground = `sleep 30.${Math.floor(1000 + Math.random() * 8999)}`;
  const detached = `sleep 3032.${Math.floor(1000 + Math.random() * 8999)}`;
  const running = (commandLine: string) => Bun.spawnSync(['pgrep', '-f', `^${commandLine}$`]).stdout.toString().trim();
  world.model.reply({
    content: [{ type: 'tool_use', id: 'toolu_2', name: 'bash', input: { command: `(setsid ${detached} </dev/null >/dev/null 2>&1 &); ${foreground}` } }],
    stop_reason: 'tool_use',
    usage: { input_tokens: 10, output_tokens: 5 },
  });
  const agent = await createAgent(world.api, { tools: [{ type: 'agent_toolset_20260401' }] });
  const environment = await createEnvironment(world.api);
  const session = expectOk(await world.api('POST', '/v1/sessions', { body: { agent: agent.id, environment_id: environment.id, initial_events: [userMessage('Wait')] } }));
  await eventually('the tool to run in the sandbox', () => (running(foreground) && running(detached) ? true : undefined), { timeoutMs: 45_000, intervalMs: 50 });

  const interruptedAt = Date.now();
  await sdk().beta.sessions.events.send(session.id, { events: [{ type: 'user.interrupt' }] });
  await eventually('the running tool to be killed', () => (running(foreground) ? undefined : true), { timeoutMs: 10_000, intervalMs: 50 });
  expect(Date.now() - interruptedAt).toBeLessThan(5_000);
  await eventually('what the tool left running to be killed with the session process', () => (running(detached) ? undefined : true), { timeoutMs: 20_000, intervalMs: 100 });
  const [item] = (await sdk().beta.environments.work.list(environment.id)).data;
  expect(item?.state).toBe('stopped');
  expect((await sdk().beta.sessions.retrieve(session.id)).status).toBe('idle');
  expect(world.model.requests.length - requests).toBe(1);
}, 90_000);
