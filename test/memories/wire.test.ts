/**
 * Memories on the wire, below the SDK: the 409 envelopes with their own error objects (and
 * nothing of ours in them), the document's description of them, view defaults, unknown query
 * parameters, and a cursor reused with other filters.
 */
import { describe, expect, test } from 'bun:test';
import { apiClient } from '../support/api';
import { expectInvalidRequest, expectOk } from '../support/expect';
import { createMemoryStore, useTwoTenantStack } from '../support/fixtures';

const world = useTwoTenantStack({ services: ['catalog'] });
const memories = (storeId: string) => `/v1/memory_stores/${storeId}/memories`;

describe('memory errors on the wire', () => {
  test('a path conflict is the SDK error object, its fields beside type and message', async () => {
    const { api } = world;
    const store = await createMemoryStore(api);
    const first = expectOk(await api('POST', memories(store.id), { body: { path: '/a/b', content: '' } }));
    const res = await api('POST', memories(store.id), { body: { path: '/a', content: '' } });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 409,
      body: {
        type: 'error',
        error: { type: 'memory_path_conflict_error', message: expect.stringContaining(first.id), conflicting_memory_id: first.id, conflicting_path: '/a/b' },
        request_id: res.headers.get('request-id'),
      },
    });
  });

  test('a failed precondition is memory_precondition_failed_error, type and message only', async () => {
    const { api } = world;
    const store = await createMemoryStore(api);
    const memory = expectOk(await api('POST', memories(store.id), { body: { path: '/n', content: 'x' } }));
    const res = await api('DELETE', `${memories(store.id)}/${memory.id}`, { query: { expected_content_sha256: '0'.repeat(64) } });
    expect(res.status).toBe(409);
    expect(Object.keys(res.body.error).toSorted()).toEqual(['message', 'type']);
    expect(res.body.error.type).toBe('memory_precondition_failed_error');
    expectInvalidRequest(await api('DELETE', `${memories(store.id)}/${memory.id}`, { query: { expected_content_sha256: 'ABC' } }), 'expected_content_sha256:');
    expectInvalidRequest(
      await api('POST', `${memories(store.id)}/${memory.id}`, { body: { content: 'y', precondition: { type: 'content_sha256' } } }),
      'precondition.content_sha256:',
    );
  });

  test('the document describes the 409s of memory writes', async () => {
    const document = (await (await fetch(`${world.stack.url}/v1/openapi.json`)).json()) as any;
    const created = JSON.stringify(document.paths['/v1/memory_stores/{memory_store_id}/memories'].post.responses['409']);
    expect(created).toContain('memory_path_conflict_error');
    const deleted = JSON.stringify(document.paths['/v1/memory_stores/{memory_store_id}/memories/{memory_id}'].delete.responses['409']);
    expect(deleted).toContain('memory_precondition_failed_error');
  });
});

describe('memory routes', () => {
  test('view defaults: full on retrieve, basic on create, update and list; unknown query parameters are 400', async () => {
    const { api } = world;
    const store = await createMemoryStore(api);
    const memory = expectOk(await api('POST', memories(store.id), { body: { path: '/v', content: 'text' } }));
    expect(memory.content).toBeNull();
    expect(expectOk(await api('GET', `${memories(store.id)}/${memory.id}`)).content).toBe('text');
    expect(expectOk(await api('POST', `${memories(store.id)}/${memory.id}`, { body: { content: 'more' } })).content).toBeNull();
    expect(expectOk(await api('GET', memories(store.id))).data[0].content).toBeNull();
    expectInvalidRequest(await api('GET', `${memories(store.id)}/${memory.id}`, { query: { expand: 'x' } }), 'expand: unknown query parameter');
    expectInvalidRequest(await api('POST', `/v1/memory_stores/${store.id}/memory_versions/${memory.memory_version_id}/redact`, { query: { view: 'full' } }), 'view: unknown query parameter');
    expectInvalidRequest(await api('GET', memories(store.id), { query: { depth: '-1' } }), 'depth:');
  });

  test('a cursor is bound to its filters; null content creates an empty memory', async () => {
    const { api } = world;
    const store = await createMemoryStore(api);
    for (const path of ['/1', '/2', '/3']) expectOk(await api('POST', memories(store.id), { body: { path, content: null } }));
    const page = expectOk(await api('GET', memories(store.id), { query: { limit: '1' } }));
    expect(page.data[0]).toMatchObject({ path: '/1', content_size_bytes: 0 });
    expectInvalidRequest(await api('GET', memories(store.id), { query: { limit: '1', depth: '1', page: page.next_page } }), 'invalid page cursor');
    const next = expectOk(await api('GET', memories(store.id), { query: { limit: '1', page: page.next_page } }));
    expect(next.data[0].path).toBe('/2');
  });

  test('a read-only key of the same workspace reads memories and cannot write them', async () => {
    const { stack, api, mine } = world;
    const store = await createMemoryStore(api);
    const memory = expectOk(await api('POST', memories(store.id), { body: { path: '/r', content: 'r' } }));
    const { organization_id: org, workspace_id: workspace } = mine.tenant;
    const readOnly = apiClient(stack.url, (await stack.createKey({ org, workspace, scope: 'read_only' })).secret);
    expect(expectOk(await readOnly('GET', `${memories(store.id)}/${memory.id}`)).content).toBe('r');
    expect((await readOnly('POST', memories(store.id), { body: { path: '/w', content: '' } })).status).toBe(403);
  });
});
