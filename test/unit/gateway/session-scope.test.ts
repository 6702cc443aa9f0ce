import { describe, expect, test } from 'bun:test';
import { checkSessionScope } from '../../../services/gateway/src/routing/session-scope';

const claims = { organization_id: 'o', workspace_id: 'w', session_id: 'sesn_1', environment_id: 'env_1', work_id: 'work_1', expires_at: 1 };
const session = {
  resources: [
    { type: 'memory_store', memory_store_id: 'memstore_rw', access: 'read_write' },
    { type: 'memory_store', memory_store_id: 'memstore_ro', access: 'read_only' },
  ],
  agent: { skills: [{ type: 'custom', skill_id: 'skill_mine', version: 'latest' }] },
} as never;
const check = (operation: string, params: Record<string, string>) => checkSessionScope(claims, operation, params, async () => session);
const MEMORIES = '/v1/memory_stores/:memory_store_id/memories';

describe('what a sessions token reaches', () => {
  test('the memories of the stores its session mounts; writes only where mounted read-write', async () => {
    await check(`GET ${MEMORIES}`, { memory_store_id: 'memstore_ro' });
    await check(`POST ${MEMORIES}/:memory_id`, { memory_store_id: 'memstore_rw', memory_id: 'mem_1' });
    await expect(check(`POST ${MEMORIES}`, { memory_store_id: 'memstore_ro' })).rejects.toThrow("memory store 'memstore_ro' is mounted read-only in session 'sesn_1'");
    await expect(check(`DELETE ${MEMORIES}/:memory_id`, { memory_store_id: 'memstore_ro', memory_id: 'mem_1' })).rejects.toThrow('read-only');
    await expect(check(`GET ${MEMORIES}`, { memory_store_id: 'memstore_other' })).rejects.toThrow('limited to its own session');
  });

  test("its agent's skills' versions and files, nothing else of skills or stores", async () => {
    await check('GET /v1/skills/:skill_id/versions/:version', { skill_id: 'skill_mine', version: 'latest' });
    await check('GET /v1/skills/:skill_id/versions/:version/content', { skill_id: 'skill_mine', version: '1' });
    await expect(check('GET /v1/skills/:skill_id/versions/:version', { skill_id: 'skill_other', version: '1' })).rejects.toThrow('limited');
    await expect(check('GET /v1/skills', {})).rejects.toThrow('limited');
    await expect(check('GET /v1/memory_stores/:memory_store_id/memory_versions', { memory_store_id: 'memstore_rw' })).rejects.toThrow('limited');
    await expect(check('POST /v1/memory_stores/:memory_store_id/archive', { memory_store_id: 'memstore_rw' })).rejects.toThrow('limited');
  });

  test('its own session and item as before; the session is read only for memory and skill routes', async () => {
    let reads = 0;
    const counting = async () => {
      reads++;
      return session;
    };
    await checkSessionScope(claims, 'GET /v1/sessions/:session_id', { session_id: 'sesn_1' }, counting);
    await checkSessionScope(claims, 'POST /v1/environments/:environment_id/work/:work_id/heartbeat', { environment_id: 'env_1', work_id: 'work_1' }, counting);
    await expect(checkSessionScope(claims, 'GET /v1/sessions/:session_id', { session_id: 'sesn_2' }, counting)).rejects.toThrow('limited');
    expect(reads).toBe(0);
  });
});
