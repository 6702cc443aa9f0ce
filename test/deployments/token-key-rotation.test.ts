import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { openSecret, unwrapDataKey } from '@shared/crypto/envelope';
import { parseMasterKeyRing } from '@shared/crypto/master-key-ring';
import { deployments, deploymentSecrets } from '../../services/deployments/src/db/schema';
import { repositoryTokenRecordId } from '../../services/deployments/src/domain/repository-tokens';
import { apiClient } from '../support/api';
import { createDeployment, deploymentWorld, repository } from '../support/fixtures';
import { Stack } from '../support/stack';

/** Master key rotation for the data keys that seal repository tokens (same ring as vaults). */
const keyA = `a:${Buffer.alloc(32, 21).toString('base64')}`;
const keyB = `b:${Buffer.alloc(32, 22).toString('base64')}`;
const root = join(import.meta.dir, '..', '..');
let stack: Stack;

beforeAll(async () => {
  stack = await Stack.start({ services: ['catalog', 'vaults', 'deployments'], env: { MASTER_KEYS: keyA } });
});
afterAll(() => stack?.stop());

async function rewrap(masterKeys: string, masterKeyId: string) {
  const proc = Bun.spawn(['bun', 'services/deployments/src/cli/rewrap-data-keys.ts'], {
    cwd: root,
    env: { ...process.env, ...stack.env('deployments'), MASTER_KEYS: masterKeys, MASTER_KEY_ID: masterKeyId } as Record<string, string>,
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  return { stdout, code };
}

describe('repository-token data keys under master key rotation', () => {
  test('re-wrapping moves every deployment key to the new master key; tokens stay readable', async () => {
    const key = await stack.createKey();
    const api = apiClient(stack.url, key.secret);
    const world = await deploymentWorld(api);
    const withToken = await createDeployment(api, world.body({ resources: [repository({ authorization_token: 'ghp_rotate_me' })] }));
    const withoutToken = await createDeployment(api, world.body());

    const run = await rewrap(`${keyA},${keyB}`, 'b');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('deployments: re-wrapped 1 data keys under b; 0 changed meanwhile; 0 failed');

    const db = stack.service('deployments').database.db;
    const [row] = await db.select().from(deployments).where(eq(deployments.id, withToken.id));
    expect(row!.dataKeyId).toBe('b');
    const [plain] = await db.select().from(deployments).where(eq(deployments.id, withoutToken.id));
    expect(plain!.dataKeyId).toBeNull();

    // With only the new key configured, the token still opens.
    const onlyB = parseMasterKeyRing({ NODE_ENV: 'test', MASTER_KEYS: keyB });
    const dataKey = unwrapDataKey(onlyB, { keyId: row!.dataKeyId!, wrapped: row!.dataKeyWrapped! }, withToken.id);
    const [secret] = await db.select().from(deploymentSecrets).where(eq(deploymentSecrets.deploymentId, withToken.id));
    expect(openSecret(dataKey, secret!.sealed, repositoryTokenRecordId(withToken.id, 0))).toBe('ghp_rotate_me');

    expect((await rewrap(`${keyA},${keyB}`, 'b')).stdout).toContain('re-wrapped 0 data keys');
  });
});
