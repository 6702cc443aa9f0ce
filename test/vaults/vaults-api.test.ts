import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { apiClient, type ApiClient } from '../support/api';
import { Stack } from '../support/stack';
import { publishedEvents } from '../support/streams';
import { createVault } from '../support/fixtures';
import { expectCodedError, expectError, expectOk } from '../support/expect';
import { allPages } from '../support/pages';
import { checkVaults, createBearer, rawRows, resolveCredentials, uniqueSecret } from '../support/vaults';

let stack: Stack;
let api: ApiClient;
let tenant: Awaited<ReturnType<Stack['createKey']>>['tenant'];

beforeAll(async () => {
  stack = await Stack.start({ services: ['vaults'] });
  const key = await stack.createKey();
  tenant = key.tenant;
  api = apiClient(stack.url, key.secret);
});
afterAll(() => stack?.stop());

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('vaults', () => {
  test('create returns the SDK shape with a vlt_ id and ms UTC timestamps', async () => {
    const res = await api('POST', '/v1/vaults', { body: { display_name: 'Prod secrets', metadata: { team: 'infra' } } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(
      ['archived_at', 'created_at', 'display_name', 'id', 'metadata', 'type', 'updated_at'].sort(),
    );
    expect(res.body).toMatchObject({ type: 'vault', display_name: 'Prod secrets', metadata: { team: 'infra' }, archived_at: null });
    expect(res.body.id).toMatch(/^vlt_[0-9A-Za-z]{24}$/);
    expect(res.body.created_at).toMatch(TIMESTAMP);
    expect(res.body.updated_at).toBe(res.body.created_at);
    expect(expectOk(await api('GET', `/v1/vaults/${res.body.id}`), 'get')).toEqual(res.body);
  });

  test('metadata defaults to an empty object', async () => {
    expect((await createVault(api)).metadata).toEqual({});
  });

  test('create validation: display_name, metadata limits, unknown fields', async () => {
    expectError(await api('POST', '/v1/vaults', { body: {} }), 400, 'invalid_request_error', 'display_name');
    expectError(await api('POST', '/v1/vaults', { body: { display_name: '' } }), 400, 'invalid_request_error', 'display_name');
    expectError(await api('POST', '/v1/vaults', { body: { display_name: 'x'.repeat(256) } }), 400, 'invalid_request_error', 'display_name');
    expectError(await api('POST', '/v1/vaults', { body: { display_name: 'x', colour: 'red' } }), 400, 'invalid_request_error', 'colour');
    const seventeen = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v']));
    expectCodedError(await api('POST', '/v1/vaults', { body: { display_name: 'x', metadata: seventeen } }), 400, 'invalid_request_error', 'invalid_metadata', 'metadata');
    expectCodedError(await api('POST', '/v1/vaults', { body: { display_name: 'x', metadata: { ['k'.repeat(65)]: 'v' } } }), 400, 'invalid_request_error', 'invalid_metadata', 'metadata: keys');
    expectCodedError(await api('POST', '/v1/vaults', { body: { display_name: 'x', metadata: { '': 'v' } } }), 400, 'invalid_request_error', 'invalid_metadata', 'metadata: keys');
    expectCodedError(await api('POST', '/v1/vaults', { body: { display_name: 'x', metadata: { k: 'v'.repeat(513) } } }), 400, 'invalid_request_error', 'invalid_metadata', 'metadata');
    expectCodedError(await api('POST', '/v1/vaults', { body: { display_name: 'x', metadata: { k: 1 } } }), 400, 'invalid_request_error', 'invalid_metadata', 'metadata');
  });

  test('update: display_name, metadata patch (string upserts, null deletes, omitted stays)', async () => {
    const vault = await createVault(api, { display_name: 'before', metadata: { a: '1', b: '2' } });
    const updated = expectOk(
      await api('POST', `/v1/vaults/${vault.id}`, { body: { display_name: 'after', metadata: { a: null, c: '3', b: '2b' } } }),
      'update',
    );
    expect(updated).toMatchObject({ id: vault.id, display_name: 'after', metadata: { b: '2b', c: '3' }, created_at: vault.created_at });
    expect(Object.keys(updated.metadata).sort()).toEqual(['b', 'c']);
    expect(new Date(updated.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(vault.updated_at).getTime());
    // null and omitted fields leave things as they are; deleting an absent key is no error
    const same = expectOk(await api('POST', `/v1/vaults/${vault.id}`, { body: { display_name: null, metadata: null } }), 'noop');
    expect(same).toMatchObject({ display_name: 'after', metadata: { b: '2b', c: '3' } });
    const again = expectOk(await api('POST', `/v1/vaults/${vault.id}`, { body: { metadata: { zz: null } } }), 'delete absent');
    expect(again.metadata).toEqual({ b: '2b', c: '3' });
    expect(expectOk(await api('GET', `/v1/vaults/${vault.id}`), 'get')).toEqual(again);
    expectError(await api('POST', `/v1/vaults/${vault.id}`, { body: { display_name: '' } }), 400, 'invalid_request_error', 'display_name');
    expectError(await api('POST', `/v1/vaults/${vault.id}`, { body: { name: 'x' } }), 400, 'invalid_request_error', 'name');
  });

  test('the 16-pair limit applies to the result of a patch', async () => {
    const sixteen = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, 'v']));
    const vault = await createVault(api, { metadata: sixteen });
    const over = await api('POST', `/v1/vaults/${vault.id}`, { body: { metadata: { extra: 'v' } } });
    expectCodedError(over, 400, 'invalid_request_error', 'invalid_metadata', 'metadata');
    expect(expectOk(await api('GET', `/v1/vaults/${vault.id}`), 'get').metadata).toEqual(sixteen);
    // replacing one key with another in the same patch stays at 16
    const swapped = expectOk(await api('POST', `/v1/vaults/${vault.id}`, { body: { metadata: { k0: null, extra: 'v' } } }), 'swap');
    expect(Object.keys(swapped.metadata)).toHaveLength(16);
    expect(swapped.metadata.extra).toBe('v');
    expect(swapped.metadata.k0).toBeUndefined();
    expectCodedError(await api('POST', `/v1/vaults/${vault.id}`, { body: { metadata: { k1: 'v'.repeat(513) } } }), 400, 'invalid_request_error', 'invalid_metadata');
    expectCodedError(await api('POST', `/v1/vaults/${vault.id}`, { body: { metadata: { ['k'.repeat(65)]: null } } }), 400, 'invalid_request_error', 'invalid_metadata', 'metadata: keys');
  });

  test('archive: sets archived_at once, hides from the default list, freezes the vault', async () => {
    const vault = await createVault(api);
    const archived = expectOk(await api('POST', `/v1/vaults/${vault.id}/archive`), 'archive');
    expect(archived.archived_at).toMatch(TIMESTAMP);
    expect(archived.updated_at).toBe(archived.archived_at);
    const again = expectOk(await api('POST', `/v1/vaults/${vault.id}/archive`), 'archive again');
    expect(again).toEqual(archived);
    expect(expectOk(await api('GET', `/v1/vaults/${vault.id}`), 'get')).toEqual(archived);

    const ids = (q: Record<string, string>) => api('GET', '/v1/vaults', { query: { limit: '100', ...q } }).then((r) => expectOk(r, 'list').data.map((v: any) => v.id));
    expect(await ids({})).not.toContain(vault.id);
    expect(await ids({ include_archived: 'false' })).not.toContain(vault.id);
    expect(await ids({ include_archived: 'true' })).toContain(vault.id);
    expectError(await api('GET', '/v1/vaults', { query: { include_archived: 'yes' } }), 400, 'invalid_request_error', 'include_archived');

    expectError(await api('POST', `/v1/vaults/${vault.id}`, { body: { display_name: 'x' } }), 400, 'invalid_request_error', 'archived');
    const credential = await api('POST', `/v1/vaults/${vault.id}/credentials`, {
      body: { auth: { type: 'static_bearer', token: 'tok', mcp_server_url: 'https://mcp.example.com' } },
    });
    expectError(credential, 400, 'invalid_request_error', 'archived');
    expectError(await api('POST', `/v1/vaults/${vault.id}/archive`, { body: { force: true } }), 400, 'invalid_request_error');

    expect((await checkVaults(stack, tenant, [vault.id])).vaults).toEqual([{ id: vault.id, state: 'archived' }]);
    expect((await resolveCredentials(stack, tenant, [vault.id])).vaults).toEqual([{ id: vault.id, state: 'archived', credentials: [] }]);
  });

  test('list: newest first, keyset pages that add up to the whole list, cursors bound to their query', async () => {
    const key = await stack.createKey();
    const own = apiClient(stack.url, key.secret);
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await createVault(own, { display_name: `v${i}` }));
    const all = expectOk(await own('GET', '/v1/vaults'), 'list all');
    expect(all.next_page).toBeNull();
    expect(all.data.map((v: any) => v.id).sort()).toEqual(made.map((v) => v.id).sort());
    const order = [...all.data].sort((a: any, b: any) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1));
    expect(all.data).toEqual(order);

    const pages = await allPages(own, '/v1/vaults', { limit: '2' });
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(all.data);

    const first = expectOk(await own('GET', '/v1/vaults', { query: { limit: '2' } }), 'first');
    expectError(await own('GET', '/v1/vaults', { query: { limit: '3', page: first.next_page } }), 400, 'invalid_request_error', 'invalid page cursor');
    expectError(await own('GET', '/v1/vaults', { query: { limit: '2', page: first.next_page, include_archived: 'true' } }), 400, 'invalid_request_error', 'invalid page cursor');
    expectError(await api('GET', '/v1/vaults', { query: { limit: '2', page: first.next_page } }), 400, 'invalid_request_error', 'invalid page cursor');
    expectError(await own('GET', '/v1/vaults', { query: { limit: '0' } }), 400, 'invalid_request_error', 'limit');
    expectError(await own('GET', '/v1/vaults', { query: { limit: '101' } }), 400, 'invalid_request_error', 'limit');
    expectError(await own('GET', '/v1/vaults', { query: { status: 'active' } }), 400, 'invalid_request_error', 'status');
    expect(expectOk(await own('GET', '/v1/vaults', { query: { limit: '100' } }), 'max').data).toHaveLength(5);
  });

  test('delete returns vault_deleted, removes every row and announces vaults.deleted', async () => {
    const vault = await createVault(api);
    const credential = await createBearer(api, vault.id, uniqueSecret('del'));
    const res = await api('DELETE', `/v1/vaults/${vault.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ type: 'vault_deleted', id: vault.id });
    expect((await rawRows(stack, 'vaults')).some((r) => r.id === vault.id)).toBe(false);
    expect((await rawRows(stack, 'vault_credentials')).some((r) => r.id === credential.id || r.vault_id === vault.id)).toBe(false);
    const events = (await publishedEvents(stack, 'vaults', 'vaults')).filter((m) => m.data.type === 'vaults.deleted');
    const event = events.map((m) => m.data).find((p) => p.data.vault_id === vault.id);
    expect(event).toMatchObject({
      type: 'vaults.deleted',
      organization_id: tenant.organization_id,
      workspace_id: tenant.workspace_id,
      data: { vault_id: vault.id },
    });
    expect(event.id).toMatch(/^evt_/);

    expectError(await api('GET', `/v1/vaults/${vault.id}`), 404, 'not_found_error');
    expectError(await api('DELETE', `/v1/vaults/${vault.id}`), 404, 'not_found_error');
    expectError(await api('GET', `/v1/vaults/${vault.id}/credentials/${credential.id}`), 404, 'not_found_error');
    expect((await checkVaults(stack, tenant, [vault.id])).vaults).toEqual([{ id: vault.id, state: 'not_found' }]);
  });

  test('an archived vault can still be deleted', async () => {
    const vault = await createVault(api);
    expectOk(await api('POST', `/v1/vaults/${vault.id}/archive`), 'archive');
    expect(expectOk(await api('DELETE', `/v1/vaults/${vault.id}`), 'delete')).toEqual({ type: 'vault_deleted', id: vault.id });
  });

  test('checkVaults answers every id in order, in one call', async () => {
    const live = await createVault(api);
    const archived = await createVault(api);
    expectOk(await api('POST', `/v1/vaults/${archived.id}/archive`), 'archive');
    const reply = await checkVaults(stack, tenant, [archived.id, 'vlt_000000000000000000000000', live.id, live.id]);
    expect(reply.vaults).toEqual([
      { id: archived.id, state: 'archived' },
      { id: 'vlt_000000000000000000000000', state: 'not_found' },
      { id: live.id, state: 'ok' },
      { id: live.id, state: 'ok' },
    ]);
  });

  test('unknown ids are 404 with the envelope, and so are ids that are not vault ids at all', async () => {
    expectError(await api('GET', '/v1/vaults/vlt_doesnotexist'), 404, 'not_found_error');
    expectError(await api('POST', '/v1/vaults/vlt_doesnotexist/archive'), 404, 'not_found_error');
    expectError(await api('GET', `/v1/vaults/${'x'.repeat(200)}`), 404, 'not_found_error');
  });

  test('a read-only key can read vaults but not change them', async () => {
    const vault = await createVault(api);
    const readOnly = apiClient(stack.url, (await stack.createKey({ org: tenant.organization_id, workspace: tenant.workspace_id, scope: 'read_only' })).secret);
    expect((await readOnly('GET', `/v1/vaults/${vault.id}`)).status).toBe(200);
    expectError(await readOnly('POST', '/v1/vaults', { body: { display_name: 'x' } }), 403, 'permission_error');
    expectError(await readOnly('DELETE', `/v1/vaults/${vault.id}`), 403, 'permission_error');
  });

  test('vault routes need beta=true; version headers are optional but validated', async () => {
    expectError(await api('GET', '/v1/vaults', { query: { beta: null } }), 400, 'invalid_request_error', 'beta');
    expect((await api('GET', '/v1/vaults', { headers: { 'anthropic-version': null, 'anthropic-beta': null } })).status).toBe(200);
    expectError(await api('GET', '/v1/vaults', { headers: { 'anthropic-beta': 'other-beta' } }), 400, 'invalid_request_error');
    expectError(await apiClient(stack.url)('DELETE', '/v1/vaults/vlt_x'), 401, 'authentication_error');
  });
});
