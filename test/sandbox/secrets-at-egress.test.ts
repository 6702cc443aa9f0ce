/**
 * An environment_variable credential of a session's vault, through the real stack and the SDK's
 * own worker: inside the sandbox the variable holds a placeholder; the egress proxy puts the real
 * value into requests to the credential's hosts (a header and a body over plain HTTP, a header
 * over HTTPS, intercepted with the installation's CA that only sandboxes trust) and nowhere else;
 * the value appears in no tool output, event or model request.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectOk } from '../support/expect';
import { useRuntimeWorld } from '../support/runtime-world';
import { runInSandbox } from '../support/sandbox-session';
import { makeTestCa } from '../support/test-ca';

const SECRET = `sk-live-${crypto.randomUUID()}`;
const world = useRuntimeWorld();
const seen: Array<{ scheme: string; host: string; headers: Record<string, string>; body: string }> = [];
let dir: string;
let plain: ReturnType<typeof Bun.serve>;
let secure: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'egress-secrets-'));
  // A server of the outside world, with a certificate of a CA the worker is told to trust upstream.
  const ca = await makeTestCa(dir);
  const record = (scheme: string) => async (request: Request) => {
    seen.push({ scheme, host: new URL(request.url).host, headers: Object.fromEntries(request.headers), body: await request.text() });
    return new Response('recorded\n');
  };
  plain = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: record('http') });
  secure = Bun.serve({ hostname: '127.0.0.1', port: 0, tls: ca.server, fetch: record('https') });
  await world.stack.startSandboxWorker({
    SANDBOX_IDLE_MS: '300',
    SANDBOX_EGRESS_ALLOW_HOSTS: `127.0.0.1:${plain.port},localhost:${plain.port},127.0.0.1:${secure.port}`,
    SANDBOX_UPSTREAM_CA_FILE: ca.caFile,
  });
}, 60_000);
afterAll(async () => {
  plain?.stop(true);
  secure?.stop(true);
  await rm(dir, { recursive: true, force: true });
});

async function vaultWithSecret(): Promise<{ id: string }> {
  const vault = expectOk(await world.api('POST', '/v1/vaults', { body: { display_name: 'egress' } }));
  expectOk(
    await world.api('POST', `/v1/vaults/${vault.id}/credentials`, {
      body: { auth: { type: 'environment_variable', secret_name: 'API_TOKEN', secret_value: SECRET, networking: { type: 'limited', allowed_hosts: ['127.0.0.1'] } } },
    }),
  );
  return vault;
}

test("the variable is a placeholder inside; the proxy puts the value into requests to the credential's host only", async () => {
  const vault = await vaultWithSecret();
  const curl = (url: string, extra = '') => `curl -sS -o /dev/null -w '%{http_code}\\n' -H "X-Api-Key: $API_TOKEN" ${extra} ${url}`;
  const run = await runInSandbox(
    world,
    [
      'echo "inside: $API_TOKEN"',
      curl(`http://127.0.0.1:${plain.port}/plain`, '--data "token=$API_TOKEN"'),
      curl(`https://127.0.0.1:${secure.port}/secure`),
      curl(`http://localhost:${plain.port}/elsewhere`),
    ].join('; '),
    {},
    { session: { vault_ids: [vault.id] } },
  );
  expect(run.output).toMatch(/inside: sandbox-secret-[0-9a-f]{32}/);
  expect(run.output.match(/^200$/gm)).toHaveLength(3);
  const placeholder = /inside: (sandbox-secret-[0-9a-f]{32})/.exec(run.output)![1]!;
  const byPath = (host: string) => seen.find((s) => s.host === host)!;
  expect(byPath(`127.0.0.1:${plain.port}`)).toMatchObject({ scheme: 'http', body: `token=${SECRET}` });
  expect(byPath(`127.0.0.1:${plain.port}`).headers['x-api-key']).toBe(SECRET);
  expect(byPath(`127.0.0.1:${secure.port}`).headers['x-api-key']).toBe(SECRET);
  // Another host, the same server: the placeholder, not the value.
  expect(byPath(`localhost:${plain.port}`).headers['x-api-key']).toBe(placeholder);
  for (const where of [run.output, JSON.stringify(run.events), JSON.stringify(world.model.requests)]) expect(where).not.toContain(SECRET);
}, 120_000);

test("a deployment's fired session gets the same: the value at the credential's host, a placeholder inside", async () => {
  const vault = await vaultWithSecret();
  const before = seen.length;
  const run = await runInSandbox(world, `echo "inside: $API_TOKEN"; curl -sS -o /dev/null -H "X-Api-Key: $API_TOKEN" http://127.0.0.1:${plain.port}/fired`, {}, { fired: true, session: { vault_ids: [vault.id] } });
  expect(run.output).toMatch(/inside: sandbox-secret-[0-9a-f]{32}/);
  expect(seen.slice(before).find((s) => s.host === `127.0.0.1:${plain.port}`)?.headers['x-api-key']).toBe(SECRET);
  for (const where of [run.output, JSON.stringify(run.events)]) expect(where).not.toContain(SECRET);
}, 120_000);

test("a credential for a host the environment's networking does not let out: credential_host_unreachable_error, and the session runs on", async () => {
  const vault = expectOk(await world.api('POST', '/v1/vaults', { body: { display_name: 'unreachable' } }));
  const credential = expectOk(
    await world.api('POST', `/v1/vaults/${vault.id}/credentials`, {
      body: { auth: { type: 'environment_variable', secret_name: 'ELSEWHERE_TOKEN', secret_value: SECRET, networking: { type: 'limited', allowed_hosts: ['api.elsewhere.test'] } } },
    }),
  );
  const limitedTo127 = { config: { type: 'cloud', networking: { type: 'limited', allowed_hosts: ['127.0.0.1'] } } };
  const run = await runInSandbox(world, 'echo runs on', limitedTo127, { session: { vault_ids: [vault.id] } });
  const error = run.events.find((e) => e.type === 'session.error') as { error: Record<string, unknown> } | undefined;
  expect(error?.error).toMatchObject({ type: 'credential_host_unreachable_error', credential_id: credential.id, retry_status: { type: 'retrying' } });
  expect(String(error?.error.message)).toContain('api.elsewhere.test');
  expect(run.output).toContain('runs on');
  expect(JSON.stringify(run.events)).not.toContain(SECRET);
}, 120_000);
