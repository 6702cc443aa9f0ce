import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { apiClient } from '../support/api';
import { expectError } from '../support/expect';
import { Stack } from '../support/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await Stack.start({ services: ['catalog'] });
});
afterAll(() => stack?.stop());

const root = join(import.meta.dir, '..', '..');

async function keysCli(...args: string[]) {
  const proc = Bun.spawn(['bun', 'run', 'keys', ...args], {
    cwd: root,
    env: { ...process.env, ...stack.env('gateway') } as Record<string, string>,
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code };
}

describe('the keys CLI', () => {
  test('create prints a working key as the last line; list shows it without the secret; revoke ends it', async () => {
    const created = await keysCli('create', '--org', 'org_cli', '--workspace', 'wrkspc_cli');
    expect(created.code).toBe(0);
    const key = created.stdout.trim().split('\n').at(-1)!;
    expect(key).toMatch(/^sk-agents-[0-9A-Za-z]{48}$/);
    expect((await apiClient(stack.url, key)('GET', '/v1/models')).status).toBe(200);

    const listed = await keysCli('list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('org_cli/wrkspc_cli');
    expect(listed.stdout).not.toContain(key);
    const keyId = listed.stdout.split('\n').find((l) => l.includes('org_cli/wrkspc_cli'))!.split('\t')[0];

    const revoked = await keysCli('revoke', keyId);
    expect(revoked.code).toBe(0);
    // A fresh gateway process would see it at once; this one caches for KEY_CACHE_TTL_MS.
    const [row] = (await stack.gateway.host.database.pool.query('SELECT revoked_at FROM api_keys WHERE id = ?', [keyId]))[0] as any[];
    expect(row.revoked_at).not.toBeNull();
  });

  test('a read-only key from the CLI is refused on mutations', async () => {
    const created = await keysCli('create', '--org', 'org_cli', '--workspace', 'wrkspc_cli', '--scope', 'read_only');
    const key = created.stdout.trim().split('\n').at(-1)!;
    const res = await apiClient(stack.url, key)('POST', '/v1/deployments', { body: {} });
    expectError(res, 403, 'permission_error');
  });

  test('bad arguments: usage and a non-zero exit, never a stack trace', async () => {
    const missing = await keysCli('create', '--org', 'org_x');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--workspace');
    const scope = await keysCli('create', '--org', 'o', '--workspace', 'w', '--scope', 'admin');
    expect(scope.code).toBe(2);
    expect((await keysCli('frobnicate')).code).toBe(2);
  });

  test('the database holds only a hash of each key', async () => {
    const created = await stack.createKey();
    const [rows] = await stack.gateway.host.database.pool.query('SELECT * FROM api_keys');
    expect(JSON.stringify(rows)).not.toContain(created.secret);
  });
});
