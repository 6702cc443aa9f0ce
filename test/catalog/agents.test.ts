import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { ApiClient } from '../support/api';
import { Stack } from '../support/stack';
import { expectCodedError, expectError, expectOk } from '../support/expect';
import { allPages } from '../support/pages';
import { createAgent, twoTenants } from '../support/fixtures';
import { idPattern, RFC3339_MS } from '../support/formats';

let stack: Stack;
let api: ApiClient;
let other: ApiClient;

beforeAll(async () => {
  stack = await Stack.start({ services: ['catalog'] });
  ({ api, other } = await twoTenants(stack));
});
afterAll(() => stack?.stop());

describe('agents', () => {
  test('create returns version 1 in the SDK shape', async () => {
    const agent = await createAgent(api, { name: 'triage', description: 'night shift', system: 'Be brief.', metadata: { team: 'ops' } });
    expect(agent).toEqual({
      type: 'agent',
      id: expect.stringMatching(idPattern('agent_')),
      version: 1,
      name: 'triage',
      description: 'night shift',
      model: { id: 'claude-opus-4-5' },
      system: 'Be brief.',
      metadata: { team: 'ops' },
      execution_identity: { type: 'service_account' },
      tools: [],
      mcp_servers: [],
      skills: [],
      multiagent: null,
      created_at: expect.stringMatching(RFC3339_MS),
      updated_at: expect.stringMatching(RFC3339_MS),
      archived_at: null,
    });
    expect(expectOk(await api('GET', `/v1/agents/${agent.id}`))).toEqual(agent);
  });

  test('model as an object keeps its configuration; optional fields default', async () => {
    const agent = await createAgent(api, { model: { id: 'claude-opus-4-6', effort: 'high', speed: 'fast' }, tools: [], skills: [] });
    expect(agent.model).toEqual({ id: 'claude-opus-4-6', effort: { type: 'high' }, speed: 'fast' });
    expect(agent.description).toBeNull();
    expect(agent.system).toBeNull();
    expect(agent.metadata).toEqual({});
  });

  test('MCP server URLs: https only, never the installation\'s own network (issue 24: http:// and 169.254.169.254 were accepted)', async () => {
    const withServer = (url: string) => ({
      name: 'a',
      model: 'claude-opus-4-5',
      mcp_servers: [{ type: 'url', name: 'docs', url }],
      tools: [{ type: 'mcp_toolset', mcp_server_name: 'docs' }],
    });
    for (const url of ['http://mcp.example.com/sse', 'https://169.254.169.254/latest/meta-data/', 'https://127.0.0.1:8443/', 'https://[fd00::1]/', 'https://localhost/mcp']) {
      expectError(await api('POST', '/v1/agents', { body: withServer(url) }), 400, 'invalid_request_error', 'mcp_servers.0.url');
    }
    const agent = expectOk(await api('POST', '/v1/agents', { body: withServer('https://mcp.example.com/sse') }));
    expectError(
      await api('POST', `/v1/agents/${agent.id}`, { body: { version: agent.version, mcp_servers: [{ type: 'url', name: 'docs', url: 'https://10.0.0.1/' }] } }),
      400,
      'invalid_request_error',
      'mcp_servers.0.url',
    );
  });

  test('validation names the field; unknown properties are rejected at every depth', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ model: 'claude-opus-4-5' }, 'name: is required'],
      [{ name: '', model: 'claude-opus-4-5' }, 'name: must be at least 1 character'],
      [{ name: 'x'.repeat(257), model: 'claude-opus-4-5' }, 'name: must be at most 256 characters'],
      [{ name: 'a', model: 'no-such-model' }, 'model: unknown model "no-such-model"'],
      [{ name: 'a', model: { id: 'no-such-model' } }, 'model.id: unknown model'],
      [{ name: 'a', model: { id: 'claude-opus-4-5', colour: 5 } }, 'model.colour: unknown property'],
      [{ name: 'a', model: { id: 'claude-haiku-4-5', effort: 'high' } }, 'model.effort: model "claude-haiku-4-5" does not take an effort level'],
      [{ name: 'a', model: { id: 'claude-opus-4-5', effort: 'xhigh' } }, 'model.effort: model "claude-opus-4-5" does not support effort "xhigh"'],
      [{ name: 'a', model: 'claude-opus-4-5', colour: 5 }, 'colour: unknown property'],
      [{ name: 'a', model: 'claude-opus-4-5', metadata: { k: 'v'.repeat(513) } }, 'metadata.k: must be at most 512 characters'],
      [{ name: 'a', model: 'claude-opus-4-5', metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) }, 'metadata: must have at most 16 entries'],
      [{ name: 'a', model: 'claude-opus-4-5', execution_identity: { type: 'aws_role' } }, 'execution_identity.role_arn: is required'],
      [{ name: 'a', model: 'claude-opus-4-5', tools: [{ type: 'custom', name: 'lookup', description: 'Looks up' }] }, 'tools.0.input_schema: is required'],
    ];
    for (const [body, message] of cases) {
      const res = await api('POST', '/v1/agents', { body });
      // Metadata's 400 carries the SDK's invalid_metadata code, on every resource.
      if (message.startsWith('metadata')) expectCodedError(res, 400, 'invalid_request_error', 'invalid_metadata', message);
      else expectError(res, 400, 'invalid_request_error', message);
    }
  });

  test('update creates version N+1, older versions stay readable with ?version=', async () => {
    const v1 = await createAgent(api, { system: 'one', metadata: { a: '1', b: '2' } });
    const v2 = expectOk(await api('POST', `/v1/agents/${v1.id}`, { body: { version: 1, system: 'two', metadata: { a: null, c: '3' } } }));
    expect(v2.version).toBe(2);
    expect(v2.system).toBe('two');
    expect(v2.metadata).toEqual({ b: '2', c: '3' });
    expect(v2.created_at).toBe(v1.created_at);
    const v3 = expectOk(await api('POST', `/v1/agents/${v1.id}`, { body: { model: 'claude-sonnet-4-5', description: 'later' } }));
    expect(v3).toMatchObject({ version: 3, model: { id: 'claude-sonnet-4-5' }, description: 'later', system: 'two' });

    expect(expectOk(await api('GET', `/v1/agents/${v1.id}`)).version).toBe(3);
    const old = expectOk(await api('GET', `/v1/agents/${v1.id}`, { query: { version: '1' } }));
    expect(old).toMatchObject({ version: 1, system: 'one', metadata: { a: '1', b: '2' }, model: { id: 'claude-opus-4-5' } });
    expectError(await api('GET', `/v1/agents/${v1.id}`, { query: { version: '9' } }), 404, 'not_found_error');
    expectError(await api('GET', `/v1/agents/${v1.id}`, { query: { version: '0' } }), 400, 'invalid_request_error', 'version:');
  });

  test('an update that changes nothing adds no version', async () => {
    const v1 = await createAgent(api, { system: 'same' });
    const same = expectOk(await api('POST', `/v1/agents/${v1.id}`, { body: { system: 'same', version: 1 } }));
    expect(same.version).toBe(1);
  });

  test('version mismatch: 409; update validation names the field', async () => {
    const agent = await createAgent(api);
    expectOk(await api('POST', `/v1/agents/${agent.id}`, { body: { version: 1, name: 'renamed' } }));
    const stale = await api('POST', `/v1/agents/${agent.id}`, { body: { version: 1, name: 'again' } });
    expectError(stale, 409, 'invalid_request_error', 'version');
    expectError(await api('POST', `/v1/agents/${agent.id}`, { body: { name: '' } }), 400, 'invalid_request_error', 'name:');
    expectError(await api('POST', `/v1/agents/${agent.id}`, { body: { model: 'gpt-0' } }), 400, 'invalid_request_error', 'model:');
    expectError(await api('POST', `/v1/agents/${agent.id}`, { body: { nope: 1 } }), 400, 'invalid_request_error', 'nope: unknown property');
  });

  test('metadata patch: the 16-pair limit applies to the result', async () => {
    const full = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, 'v']));
    const agent = await createAgent(api, { metadata: full });
    expectCodedError(await api('POST', `/v1/agents/${agent.id}`, { body: { metadata: { extra: 'v' } } }), 400, 'invalid_request_error', 'invalid_metadata', 'metadata');
    const swapped = expectOk(await api('POST', `/v1/agents/${agent.id}`, { body: { metadata: { extra: 'v', k0: null } } }));
    expect(Object.keys(swapped.metadata)).toHaveLength(16);
    expect(swapped.metadata.extra).toBe('v');
  });

  test('archive sets archived_at; archived agents cannot be updated and leave the default list', async () => {
    const agent = await createAgent(api, { name: 'to archive' });
    const archived = expectOk(await api('POST', `/v1/agents/${agent.id}/archive`));
    expect(archived.archived_at).toMatch(RFC3339_MS);
    expect(archived.version).toBe(1);
    const again = expectOk(await api('POST', `/v1/agents/${agent.id}/archive`, { body: {} }));
    expect(again.archived_at).toBe(archived.archived_at);
    expectError(await api('POST', `/v1/agents/${agent.id}`, { body: { name: 'x' } }), 400, 'invalid_request_error', 'archived');
    expectError(await api('POST', `/v1/agents/${agent.id}/archive`, { body: { force: true } }), 400, 'invalid_request_error');

    const listed = (await allPages(api, '/v1/agents', { limit: '100' })).flat();
    expect(listed.some((a) => a.id === agent.id)).toBe(false);
    const withArchived = (await allPages(api, '/v1/agents', { limit: '100', include_archived: 'true' })).flat();
    expect(withArchived.some((a) => a.id === agent.id)).toBe(true);
  });

  test("another tenant's agent is not found on every route", async () => {
    const agent = await createAgent(api);
    expectError(await other('GET', `/v1/agents/${agent.id}`), 404, 'not_found_error');
    expectError(await other('GET', `/v1/agents/${agent.id}`, { query: { version: '1' } }), 404, 'not_found_error');
    expectError(await other('POST', `/v1/agents/${agent.id}`, { body: { name: 'mine now' } }), 404, 'not_found_error');
    expectError(await other('POST', `/v1/agents/${agent.id}/archive`), 404, 'not_found_error');
    expect(expectOk(await other('GET', '/v1/agents')).data.some((a: any) => a.id === agent.id)).toBe(false);
    expect(expectOk(await api('GET', `/v1/agents/${agent.id}`)).archived_at).toBeNull();
  });

  test('lists newest first across pages; cursors are bound to their filters', async () => {
    const { api: fresh } = await twoTenants(stack);
    const made: string[] = [];
    for (let i = 0; i < 7; i++) {
      made.push(expectOk(await fresh('POST', '/v1/agents', { body: { name: `a${i}`, model: 'claude-opus-4-5' } })).id);
    }
    const pages = await allPages(fresh, '/v1/agents', { limit: '3' });
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    expect(pages.flat().map((a) => a.id)).toEqual([...made].reverse());

    const first = expectOk(await fresh('GET', '/v1/agents', { query: { limit: '3' } }));
    const mismatched = await fresh('GET', '/v1/agents', { query: { limit: '4', page: first.next_page } });
    expectError(mismatched, 400, 'invalid_request_error', 'invalid page cursor');
    expectError(await fresh('GET', '/v1/agents', { query: { limit: '101' } }), 400, 'invalid_request_error', 'limit:');
    expectError(await fresh('GET', '/v1/agents', { query: { include_archived: 'yes' } }), 400, 'invalid_request_error', 'include_archived:');
    expect(expectOk(await fresh('GET', '/v1/agents')).data).toHaveLength(7);

    const all = pages.flat();
    const since = all[2].created_at;
    const bounded = expectOk(await fresh('GET', '/v1/agents', { query: { 'created_at[gte]': since, limit: '100' } })).data;
    expect(bounded.every((a: any) => a.created_at >= since)).toBe(true);
    expect(bounded.length).toBeGreaterThanOrEqual(3);
    expectError(await fresh('GET', '/v1/agents', { query: { 'created_at[gte]': 'yesterday' } }), 400, 'invalid_request_error', 'created_at[gte]');
  });
});
