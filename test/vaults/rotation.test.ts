import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { loadVaultsConfig } from '../../services/vaults/src/config';
import { startVaults } from '../../services/vaults/src/start-vaults';
import { apiClient, type ApiClient } from '../support/api';
import { Stack } from '../support/stack';
import { createVault } from '../support/fixtures';
import { createBearer, createEnvVar, rawRows, resolveCredentials, uniqueSecret } from '../support/vaults';

const REPO = join(import.meta.dir, '..', '..');
const keyA = `a:${Buffer.alloc(32, 1).toString('base64')}`;
const keyB = `b:${Buffer.alloc(32, 2).toString('base64')}`;

let stack: Stack;
let api: ApiClient;
let tenant: Awaited<ReturnType<Stack['createKey']>>['tenant'];

beforeAll(async () => {
  stack = await Stack.start({ services: ['vaults'], env: { MASTER_KEYS: keyA, MASTER_KEY_ID: 'a' } });
  const key = await stack.createKey();
  tenant = key.tenant;
  api = apiClient(stack.url, key.secret);
});
afterAll(() => stack?.stop());

/** Restarts the vaults service with another master key configuration, as a redeploy would. */
async function restartVaults(keys: { MASTER_KEYS: string; MASTER_KEY_ID: string }) {
  await stack.stopService('vaults');
  const runtime = await startVaults(loadVaultsConfig({ ...stack.env('vaults'), ...keys }), { clock: stack.clock });
  // As Stack.startService does: a round trip guarantees the server has the new subscriptions
  // before the next request, which would otherwise find no responders (503).
  await runtime.nc.flush();
  stack.services.set('vaults', runtime);
}

/** The operator command, run as its own process against the service's database. */
async function runRewrap(keys: { MASTER_KEYS: string; MASTER_KEY_ID: string }, args: string[] = []) {
  const proc = Bun.spawn(['bun', 'services/vaults/src/cli/rewrap-data-keys.ts', ...args], {
    cwd: REPO,
    env: { ...process.env, ...stack.env('vaults'), ...keys, LOG_LEVEL: 'warn' },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code };
}

const dataKeyIds = async () => (await rawRows(stack, 'vaults')).map((r) => r.data_key_id as string);

describe('master key rotation', () => {
  test('re-wrapping under a new master key keeps every credential readable, and the old key can then go', async () => {
    const secrets: Record<string, string> = {};
    const vaults: Array<{ id: string }> = [];
    for (let i = 0; i < 3; i++) {
      const vault = await createVault(api, { display_name: `rot${i}` });
      secrets[`${vault.id}:bearer`] = uniqueSecret(`rot-bearer${i}`);
      secrets[`${vault.id}:env`] = uniqueSecret(`rot-env${i}`);
      await createBearer(api, vault.id, secrets[`${vault.id}:bearer`]);
      await createEnvVar(api, vault.id, 'ROTATED', secrets[`${vault.id}:env`]);
      vaults.push(vault);
    }
    expect(new Set(await dataKeyIds())).toEqual(new Set(['a']));

    const readable = async () => {
      const reply = await resolveCredentials(stack, tenant, vaults.map((v) => v.id));
      return reply.vaults.map((v) => {
        if (v.state !== 'ok') return v.state;
        return v.credentials
          .map((c) => (c.auth.type === 'static_bearer' ? c.auth.token : c.auth.type === 'environment_variable' ? c.auth.secret_value : ''))
          .sort()
          .join(',');
      });
    };
    const expected = vaults.map((v) => [secrets[`${v.id}:bearer`], secrets[`${v.id}:env`]].sort().join(','));
    expect(await readable()).toEqual(expected);

    // step 1: both keys known, b active; new vaults are wrapped with b, old ones still open with a
    const both = { MASTER_KEYS: `${keyA},${keyB}`, MASTER_KEY_ID: 'b' };
    await restartVaults(both);
    expect(await readable()).toEqual(expected);
    const newer = await createVault(api, { display_name: 'after rotation' });
    const newerToken = uniqueSecret('newer');
    await createBearer(api, newer.id, newerToken);
    expect((await rawRows(stack, 'vaults')).find((r) => r.id === newer.id).data_key_id).toBe('b');

    // without key a the old vaults are unreadable, and the command refuses to pretend otherwise
    const onlyB = { MASTER_KEYS: keyB, MASTER_KEY_ID: 'b' };
    const premature = await runRewrap(onlyB);
    expect(premature.code).toBe(1);
    expect(premature.stdout).toContain('0 data keys');
    expect(premature.stdout).toContain('3 failed');

    // step 2: re-wrap, in small batches, while the service is serving
    const wrappedBefore = new Map((await rawRows(stack, 'vaults')).map((r) => [r.id, r.wrapped_data_key]));
    const run = await runRewrap(both, ['--batch-size', '2']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('re-wrapped 3 data keys under b; 0 changed meanwhile; 0 failed');
    expect(new Set(await dataKeyIds())).toEqual(new Set(['b']));
    for (const row of await rawRows(stack, 'vaults')) {
      if (row.id !== newer.id) expect(row.wrapped_data_key).not.toBe(wrappedBefore.get(row.id));
    }
    expect(await readable()).toEqual(expected);
    // a second run finds nothing left to do
    expect((await runRewrap(both)).stdout).toContain('re-wrapped 0 data keys');

    // step 3: key a is retired; everything still opens
    await restartVaults(onlyB);
    expect(await readable()).toEqual(expected);
    const [newerResolved] = (await resolveCredentials(stack, tenant, [newer.id])).vaults;
    expect(newerResolved.state).toBe('ok');
    expect(newerResolved.credentials[0].auth).toMatchObject({ type: 'static_bearer', token: newerToken });
    // and the HTTP side works as before
    expect((await api('GET', `/v1/vaults/${vaults[0].id}/credentials`)).body.data).toHaveLength(2);
  });

  test('a vault whose master key is no longer configured is unreadable, not an error', async () => {
    await restartVaults({ MASTER_KEYS: keyA, MASTER_KEY_ID: 'a' });
    const vault = await createVault(api);
    await createBearer(api, vault.id, uniqueSecret('orphan'));
    await restartVaults({ MASTER_KEYS: keyB, MASTER_KEY_ID: 'b' });
    expect((await resolveCredentials(stack, tenant, [vault.id])).vaults).toEqual([{ id: vault.id, state: 'unreadable', credentials: [] }]);
    // creating a credential needs the data key too: refused without leaking why in detail
    const res = await api('POST', `/v1/vaults/${vault.id}/credentials`, {
      body: { auth: { type: 'static_bearer', token: uniqueSecret('x'), mcp_server_url: 'https://x.example' } },
    });
    expect(res.status).toBe(500);
    expect(res.body.error).toEqual({ type: 'api_error', message: 'Internal server error' });
  });

  test('invalid master key configuration stops start-up with a message naming the variable', () => {
    expect(() => loadVaultsConfig({ ...stack.env('vaults'), MASTER_KEYS: 'a:short' })).toThrow('MASTER_KEYS');
    expect(() => loadVaultsConfig({ ...stack.env('vaults'), MASTER_KEYS: keyA, MASTER_KEY_ID: 'z' })).toThrow('MASTER_KEY_ID');
    expect(() => loadVaultsConfig({ ...stack.env('vaults'), NODE_ENV: 'production', MASTER_KEYS: undefined })).toThrow('MASTER_KEYS');
  });
});
