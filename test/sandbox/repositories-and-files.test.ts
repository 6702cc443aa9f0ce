/**
 * What a session mounts reaches its sandbox, through the real stack and the SDK's own worker: a
 * token-protected repository served by a real git server (git http-backend) on loopback, cloned
 * at its branch or commit at its mount path, its token used for the clone and the agent's later
 * fetches but readable nowhere inside; a file at its mount path. A repository that cannot be
 * cloned is the SDK's repository error kind, and the session runs on without it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../support/eventually';
import { expectOk } from '../support/expect';
import { createAgent, createEnvironment, uploadFile, userMessage } from '../support/fixtures';
import { startGitServer, type GitServer } from '../support/git-server';
import { useRuntimeWorld } from '../support/runtime-world';
import { runInSandbox } from '../support/sandbox-session';
import { makeTestCa } from '../support/test-ca';

const TOKEN = `ghp_${crypto.randomUUID().replaceAll('-', '')}`;
const world = useRuntimeWorld({ serviceEnv: { deployments: { ALLOW_HTTP_REPOSITORY_URLS: 'true' } } });
let git: GitServer;
let secureGit: GitServer;
/** A server whose token a test rotates. */
let rotatedServer: GitServer;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'repositories-'));
  const ca = await makeTestCa(dir);
  git = await startGitServer(TOKEN);
  secureGit = await startGitServer(TOKEN, ca.server);
  rotatedServer = await startGitServer(TOKEN);
  // The git servers are the operator's internal services on loopback: opened to sessions at their ports only.
  await world.stack.startSandboxWorker({
    SANDBOX_IDLE_MS: '300',
    SANDBOX_EGRESS_ALLOW_HOSTS: [git, secureGit, rotatedServer].map((server) => `127.0.0.1:${server.port}`).join(','),
    SANDBOX_UPSTREAM_CA_FILE: ca.caFile,
  });
}, 60_000);
afterAll(async () => {
  await git?.stop();
  await secureGit?.stop();
  await rotatedServer?.stop();
  await rm(dir, { recursive: true, force: true });
});

const repository = (checkout: Record<string, unknown> | null, token = TOKEN) => ({ type: 'hosted_repository', url: git.url, authorization_token: token, checkout, mount_path: '/workspace/repo' });
const LOOK = [
  'cat /workspace/repo/README.md',
  'git -C /workspace/repo rev-parse HEAD',
  'git -C /workspace/repo remote -v',
  'cat /workspace/repo/.git/config',
  'git -C /workspace/repo fetch origin 2>&1 && echo fetched',
  'env',
  'cat /proc/[0-9]*/environ 2>/dev/null | tr "\\0" "\\n"',
].join('; ');

describe('repositories', () => {
  test('cloned at its branch, fetchable through the proxy with the token it never sees', async () => {
    const run = await runInSandbox(world, LOOK, {}, { session: { resources: [repository({ type: 'branch', name: 'feature' })] } });
    expect(run.output).toContain('the feature branch');
    expect(run.output).toContain(`origin\t${git.url} (fetch)`);
    expect(run.output).toContain('fetched');
    expect(run.output).not.toContain(TOKEN);
    expect(run.output).not.toContain(Buffer.from(`x-access-token:${TOKEN}`).toString('base64'));
    expect(git.requests.answered).toBeGreaterThan(0);
    expect(JSON.stringify(run.events)).not.toContain(TOKEN);
    expect(JSON.stringify(world.model.requests)).not.toContain(TOKEN);
  }, 120_000);

  test("a deployment's fired session gets its repository the same way", async () => {
    const run = await runInSandbox(world, LOOK, {}, { fired: true, session: { resources: [repository({ type: 'branch', name: 'feature' })] } });
    expect(run.output).toContain('the feature branch');
    expect(run.output).toContain('fetched');
    expect(run.output).not.toContain(TOKEN);
    expect(JSON.stringify(run.events)).not.toContain(TOKEN);
  }, 120_000);

  test('over HTTPS: cloned, and fetched later with the token the proxy puts into the intercepted tunnel', async () => {
    const look = LOOK.replaceAll('/workspace/repo', '/workspace/secure');
    const run = await runInSandbox(world, look, {}, {
      session: { resources: [{ type: 'hosted_repository', url: secureGit.url, authorization_token: TOKEN, checkout: { type: 'branch', name: 'feature' }, mount_path: '/workspace/secure' }] },
    });
    expect(run.output).toContain('the feature branch');
    expect(run.output).toContain('fetched');
    expect(run.output).not.toContain(TOKEN);
    expect(secureGit.requests.refused).toBe(0);
  }, 120_000);

  test('a token rotated on the session reaches the next fetch of the running sandbox', async () => {
    {
      const fetchOnce = (id: string) => ({ content: [{ type: 'tool_use', id, name: 'bash', input: { command: 'git -C /workspace/rot fetch origin 2>&1 | tail -1; echo fetch-exit-$?' } }], stop_reason: 'tool_use' as const, usage: { input_tokens: 10, output_tokens: 5 } });
      world.model.reply(fetchOnce('toolu_rot_1'));
      const second = world.model.replyHeld(fetchOnce('toolu_rot_2'));
      world.model.reply({ content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 5 } });
      const agent = await createAgent(world.api, { tools: [{ type: 'agent_toolset_20260401' }] });
      const environment = await createEnvironment(world.api);
      const session = expectOk(
        await world.api('POST', '/v1/sessions', {
          body: {
            agent: agent.id,
            environment_id: environment.id,
            initial_events: [userMessage('Fetch twice')],
            resources: [{ type: 'hosted_repository', url: rotatedServer.url, authorization_token: TOKEN, checkout: null, mount_path: '/workspace/rot' }],
          },
        }),
      );
      const results = async () => ((await world.sdk().beta.sessions.events.list(session.id, { limit: 1000 })).data as Array<{ type: string; content?: Array<{ text?: string }> }>).filter((e) => e.type === 'user.tool_result');
      await eventually('the first fetch', async () => ((await results()).length === 1 ? true : undefined), { timeoutMs: 60_000, intervalMs: 100 });
      // The repository's host now takes only the new token, and the session is told it.
      const rotated = `ghp_${crypto.randomUUID().replaceAll('-', '')}`;
      rotatedServer.setToken(rotated);
      const [resource] = (await world.sdk().beta.sessions.resources.list(session.id)).data;
      await world.sdk().beta.sessions.resources.update((resource as unknown as { id: string }).id, { session_id: session.id, authorization_token: rotated });
      const refusedBefore = rotatedServer.requests.refused;
      second();
      const [first, next] = await eventually('the second fetch', async () => {
        const all = await results();
        return all.length === 2 ? all : undefined;
      }, { timeoutMs: 60_000, intervalMs: 100 });
      expect(first!.content?.[0]?.text).toContain('fetch-exit-0');
      expect(next!.content?.[0]?.text).toContain('fetch-exit-0');
      expect(next!.content?.[0]?.text).not.toContain('401');
      expect(rotatedServer.requests.refused).toBe(refusedBefore);
    }
  }, 120_000);

  test('cloned at its commit', async () => {
    const run = await runInSandbox(world, LOOK, {}, { session: { resources: [repository({ type: 'commit', sha: git.mainCommit })] } });
    expect(run.output).toContain('the main branch');
    expect(run.output).toContain(git.mainCommit);
  }, 120_000);

  test.each([
    ['a refused token', () => repository(null, 'ghp_wrong'), 'repository_authentication_error'],
    ['a branch that does not exist', () => repository({ type: 'branch', name: 'nope' }), 'repository_checkout_error'],
    ['a commit that does not exist', () => repository({ type: 'commit', sha: 'deadbeefdeadbeef' }), 'repository_checkout_error'],
  ])('%s: the session gets %s for it and runs on without the repository', async (_what, resource, kind) => {
    const run = await runInSandbox(world, 'ls /workspace/repo 2>&1 | head -1; echo runs anyway', {}, { session: { resources: [resource()] } });
    const error = run.events.find((e) => e.type === 'session.error') as { error: { type: string; message: string; repository_url: string; retry_status: { type: string } } } | undefined;
    expect(error?.error).toMatchObject({ type: kind, repository_url: git.url, retry_status: { type: 'retrying' } });
    expect(error?.error.message).toContain(git.url);
    expect(run.output).toContain('runs anyway');
    expect(run.output).toContain('No such file or directory');
    expect(run.events.at(-1)).toMatchObject({ type: 'session.status_idle', stop_reason: { type: 'end_turn' } });
  }, 120_000);
});

test("a deployment's fired session gets its file at its mount path too", async () => {
  const file = await uploadFile(world.api, 'fired.txt', 'notes for the fired session');
  const run = await runInSandbox(world, `cat /mnt/session/uploads/${file.id}`, {}, { fired: true, session: { resources: [{ type: 'file', file_id: file.id }] } });
  expect(run.output).toContain('notes for the fired session');
}, 120_000);

test('a file resource is at its mount path, read-only', async () => {
  const file = await uploadFile(world.api, 'notes.txt', 'the uploaded notes');
  const run = await runInSandbox(world, `cat /mnt/session/uploads/${file.id}; echo more >> /mnt/session/uploads/${file.id} 2>&1 | head -1`, {}, {
    session: { resources: [{ type: 'file', file_id: file.id }] },
  });
  expect(run.output).toContain('the uploaded notes');
  expect(run.output).toMatch(/Read-only file system|Permission denied/);
}, 120_000);
