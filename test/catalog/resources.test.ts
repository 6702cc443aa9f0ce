import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { describeEachSdk } from '../support/sdk';
import { toFile } from '@anthropic-ai/sdk';
import { eventSubject } from '@shared/bus/streams';
import { fileSubjects, referenceSubjects } from '@shared/bus/subjects/catalog';
import type { ApiClient } from '../support/api';
import { Stack } from '../support/stack';
import { expectCodedError, expectError, expectOk } from '../support/expect';
import { eventually } from '../support/eventually';
import { allPages } from '../support/pages';
import { twoTenants } from '../support/fixtures';
import { idPattern, RFC3339_MS } from '../support/formats';

/** Small enough that the over-limit upload stays cheap, big enough for a multi-chunk file. */
const FILE_MAX_BYTES = 2 * 1024 * 1024;

let stack: Stack;
let api: ApiClient;
let other: ApiClient;
let mine: Awaited<ReturnType<Stack['createKey']>>;

beforeAll(async () => {
  stack = await Stack.start({ services: ['catalog'], env: { FILE_MAX_BYTES: String(FILE_MAX_BYTES) } });
  ({ api, other, mine } = await twoTenants(stack));
});
afterAll(() => stack?.stop());

function upload(client: ApiClient, content: string | Uint8Array, name = 'notes.txt', type = 'text/plain') {
  const form = new FormData();
  form.append('file', new File([content], name, { type }));
  return client('POST', '/v1/files', { rawBody: form });
}

describe('environments', () => {
  test('create fills the cloud config defaults; get, update, list', async () => {
    const env = expectOk(await api('POST', '/v1/environments', { body: { name: 'prod', config: { type: 'cloud' }, metadata: { tier: '1' } } }));
    expect(env).toEqual({
      type: 'environment',
      id: expect.stringMatching(idPattern('env_')),
      name: 'prod',
      description: null,
      config: {
        type: 'cloud',
        networking: { type: 'unrestricted' },
        packages: { type: 'packages', apt: [], cargo: [], gem: [], go: [], npm: [], pip: [] },
      },
      metadata: { tier: '1' },
      created_at: expect.stringMatching(RFC3339_MS),
      updated_at: expect.stringMatching(RFC3339_MS),
      archived_at: null,
    });
    expect(expectOk(await api('GET', `/v1/environments/${env.id}`))).toEqual(env);

    const limited = expectOk(
      await api('POST', '/v1/environments', {
        body: { name: 'locked', config: { type: 'cloud', networking: { type: 'limited', allowed_hosts: ['example.com'] }, packages: { pip: ['requests'] } } },
      }),
    );
    expect(limited.config.networking).toEqual({ type: 'limited', allow_mcp_servers: false, allow_package_managers: false, allowed_hosts: ['example.com'] });
    expect(limited.config.packages.pip).toEqual(['requests']);

    const updated = expectOk(await api('POST', `/v1/environments/${env.id}`, { body: { description: 'live', metadata: { tier: null, owner: 'sre' } } }));
    expect(updated).toMatchObject({ name: 'prod', description: 'live', metadata: { owner: 'sre' } });

    const ids = expectOk(await api('GET', '/v1/environments')).data.map((e: any) => e.id);
    expect(ids.slice(0, 2)).toEqual([limited.id, env.id]);
  });

  test('a self_hosted config is stored and shown as given; an update keeps its type (SDK 1.x: invalid_config_type_change)', async () => {
    const env = expectOk(await api('POST', '/v1/environments', { body: { name: 'own workers', config: { type: 'self_hosted' } } }));
    expect(env).toMatchObject({ type: 'environment', name: 'own workers', config: { type: 'self_hosted' } });
    expect(expectOk(await api('GET', `/v1/environments/${env.id}`))).toEqual(env);
    const listed = expectOk(await api('GET', '/v1/environments', { query: { limit: '100' } })).data.find((e: any) => e.id === env.id);
    expect(listed).toEqual(env);

    // Omitting config keeps it; sending one of the same type replaces it whole; another type is refused.
    expect(expectOk(await api('POST', `/v1/environments/${env.id}`, { body: { description: 'racks' } })).config).toEqual({ type: 'self_hosted' });
    expectCodedError(
      await api('POST', `/v1/environments/${env.id}`, { body: { config: { type: 'cloud', packages: { pip: ['requests'] } } } }),
      400,
      'invalid_request_error',
      'invalid_config_type_change',
      'config.type: is self_hosted and cannot change after creation (create another environment)',
    );
    const back = expectOk(await api('POST', `/v1/environments/${env.id}`, { body: { config: { type: 'self_hosted' } } }));
    expect(back).toMatchObject({ description: 'racks', config: { type: 'self_hosted' } });
    expect(expectOk(await api('GET', `/v1/environments/${env.id}`))).toEqual(back);
    expectError(
      await api('POST', `/v1/environments/${env.id}`, { body: { config: { type: 'hybrid' } } }),
      400,
      'invalid_request_error',
      'config: must be {"type": "cloud", ...}, {"type": "self_hosted"} or null',
    );
  });

  test('validation names the field', async () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'name: is required'],
      [{ name: 'x', config: { type: 'on_premises' } }, 'config: must be {"type": "cloud", ...}, {"type": "self_hosted"} or null'],
      [{ name: 'x', config: { networking: { type: 'unrestricted' } } }, 'config: must be {"type": "cloud", ...}, {"type": "self_hosted"} or null'],
      [{ name: 'x', config: 'cloud' }, 'config: must be {"type": "cloud", ...}, {"type": "self_hosted"} or null'],
      [{ name: 'x', config: { type: 'self_hosted', networking: { type: 'unrestricted' } } }, 'config.networking: unknown property'],
      [{ name: 'x', config: { type: 'cloud', networking: { type: 'limited', allowed_hosts: 'all' } } }, 'config.networking.allowed_hosts:'],
      [{ name: 'x', config: { type: 'cloud', packages: { pip: [], brew: [] } } }, 'config.packages'],
      [{ name: 'x', scope: 5 }, 'scope: unknown property'],
    ];
    for (const [body, message] of cases) expectError(await api('POST', '/v1/environments', { body }), 400, 'invalid_request_error', message);
  });

  test('archive, delete, and another tenant sees nothing', async () => {
    const env = expectOk(await api('POST', '/v1/environments', { body: { name: 'short-lived' } }));
    expectCodedError(await other('GET', `/v1/environments/${env.id}`), 404, 'not_found_error', 'environment_not_found');
    expectCodedError(await other('POST', `/v1/environments/${env.id}`, { body: { name: 'x' } }), 404, 'not_found_error', 'environment_not_found');
    expectCodedError(await other('POST', `/v1/environments/${env.id}/archive`), 404, 'not_found_error', 'environment_not_found');
    expectCodedError(await other('DELETE', `/v1/environments/${env.id}`), 404, 'not_found_error', 'environment_not_found');

    const archived = expectOk(await api('POST', `/v1/environments/${env.id}/archive`));
    expect(archived.archived_at).toMatch(RFC3339_MS);
    expectCodedError(await api('POST', `/v1/environments/${env.id}`, { body: { name: 'x' } }), 400, 'invalid_request_error', 'environment_archived', 'archived');
    const listed = expectOk(await api('GET', '/v1/environments', { query: { limit: '100' } })).data.map((e: any) => e.id);
    expect(listed).not.toContain(env.id);
    const all = expectOk(await api('GET', '/v1/environments', { query: { limit: '100', include_archived: 'true' } })).data.map((e: any) => e.id);
    expect(all).toContain(env.id);

    expect(expectOk(await api('DELETE', `/v1/environments/${env.id}`))).toEqual({ type: 'environment_deleted', id: env.id });
    expectCodedError(await api('GET', `/v1/environments/${env.id}`), 404, 'not_found_error', 'environment_not_found');
    expectCodedError(await api('DELETE', `/v1/environments/${env.id}`), 404, 'not_found_error', 'environment_not_found');
  });
});

describe('memory stores', () => {
  test('create, get, update, archive, delete; cross-tenant 404', async () => {
    const store = expectOk(await api('POST', '/v1/memory_stores', { body: { name: 'notes', metadata: { a: '1' } } }));
    expect(store).toEqual({
      type: 'memory_store',
      id: expect.stringMatching(idPattern('memstore_')),
      name: 'notes',
      description: '',
      metadata: { a: '1' },
      created_at: expect.stringMatching(RFC3339_MS),
      updated_at: expect.stringMatching(RFC3339_MS),
      archived_at: null,
    });
    expect(expectOk(await api('GET', `/v1/memory_stores/${store.id}`))).toEqual(store);
    expect(expectOk(await api('POST', `/v1/memory_stores/${store.id}`, { body: { description: 'team notes' } })).description).toBe('team notes');

    expectError(await other('GET', `/v1/memory_stores/${store.id}`), 404, 'not_found_error');
    expectError(await other('POST', `/v1/memory_stores/${store.id}`, { body: { name: 'x' } }), 404, 'not_found_error');
    expectError(await other('POST', `/v1/memory_stores/${store.id}/archive`), 404, 'not_found_error');
    expectError(await other('DELETE', `/v1/memory_stores/${store.id}`), 404, 'not_found_error');

    expectError(await api('POST', '/v1/memory_stores', { body: { name: '' } }), 400, 'invalid_request_error', 'name: must be at least 1 character');
    expectError(await api('POST', '/v1/memory_stores', { body: { name: 'x', description: null } }), 400, 'invalid_request_error', 'description:');
    expectError(await api('POST', '/v1/memory_stores', { body: { name: 'x', kind: 5 } }), 400, 'invalid_request_error', 'kind: unknown property');

    const archived = expectOk(await api('POST', `/v1/memory_stores/${store.id}/archive`));
    expect(archived.archived_at).toMatch(RFC3339_MS);
    const listed = expectOk(await api('GET', '/v1/memory_stores', { query: { limit: '100' } })).data.map((s: any) => s.id);
    expect(listed).not.toContain(store.id);
    expect(expectOk(await api('DELETE', `/v1/memory_stores/${store.id}`))).toEqual({ type: 'memory_store_deleted', id: store.id });
    expectError(await api('GET', `/v1/memory_stores/${store.id}`), 404, 'not_found_error');
  });

  test('pages newest first with a limit', async () => {
    const { api: fresh } = await twoTenants(stack);
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push(expectOk(await fresh('POST', '/v1/memory_stores', { body: { name: `s${i}` } })).id);
    const pages = await allPages(fresh, '/v1/memory_stores', { limit: '2' });
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat().map((s) => s.id)).toEqual([...made].reverse());
  });
});

describe('files', () => {
  /** The bus read the product's own services use (the runtime's rubric files): the bytes, whatever `downloadable` says. */
  const readOverBus = async (id: string) =>
    Buffer.from((await stack.gateway.host.client.call(fileSubjects.download, { request_id: 'req_files', tenant: mine.tenant }, { file_id: id })).content_base64, 'base64');

  test('upload, get, list, download, delete', async () => {
    const file = expectOk(await upload(api, 'hello world', 'hello.txt'));
    expect(file).toEqual({
      type: 'file',
      id: expect.stringMatching(idPattern('file_')),
      filename: 'hello.txt',
      mime_type: expect.stringMatching(/^text\/plain/),
      size_bytes: 11,
      created_at: expect.stringMatching(RFC3339_MS),
      // Issue 24: uploads are not downloadable (SDK FileMetadata.downloadable: only files a
      // tool generates are); this said true, and the download route served them.
      downloadable: false,
    });
    expect(expectOk(await api('GET', `/v1/files/${file.id}`))).toEqual(file);
    expect(expectOk(await api('GET', '/v1/files')).data[0]).toEqual(file);
    // SDK FileNotDownloadableError: 400 over HTTP; inside the product the bytes are still read.
    expectCodedError(await api('GET', `/v1/files/${file.id}/content`), 400, 'invalid_request_error', 'file_not_downloadable', 'file_id', 'not downloadable');
    expect((await readOverBus(file.id)).toString()).toBe('hello world');

    expectError(await other('GET', `/v1/files/${file.id}`), 404, 'not_found_error');
    expectError(await other('GET', `/v1/files/${file.id}/content`), 404, 'not_found_error');
    expectError(await other('DELETE', `/v1/files/${file.id}`), 404, 'not_found_error');

    expect(expectOk(await api('DELETE', `/v1/files/${file.id}`))).toEqual({ type: 'file_deleted', id: file.id });
    expectError(await api('GET', `/v1/files/${file.id}`), 404, 'not_found_error');
  });

  test('a file larger than the bus message and one chunk survives byte for byte', async () => {
    const bytes = new Uint8Array(1_500_000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + 7) % 256;
    const file = expectOk(await upload(api, bytes, 'blob.bin', 'application/octet-stream'));
    expect(file.size_bytes).toBe(bytes.length);
    expect(new Uint8Array(await readOverBus(file.id))).toEqual(bytes);
  });

  test('over the size limit: 413; bad forms: 400 naming the field', async () => {
    expectError(await upload(api, new Uint8Array(FILE_MAX_BYTES + 1), 'big.bin'), 413, 'invalid_request_error', 'file');
    const extra = new FormData();
    extra.append('file', new File(['x'], 'x.txt'));
    extra.append('purpose', 'testing');
    expectError(await api('POST', '/v1/files', { rawBody: extra }), 400, 'invalid_request_error', 'purpose: unknown field');
    expectError(await api('POST', '/v1/files', { rawBody: new FormData() }), 400, 'invalid_request_error', 'file');
    expectError(await api('POST', '/v1/files', { body: { file: 'x' } }), 400, 'invalid_request_error', 'multipart/form-data');
  });
});

describe('catalog.references.resolve', () => {
  test('resolves every kind in one call, for the caller tenant only', async () => {
    const agent = expectOk(await api('POST', '/v1/agents', { body: { name: 'ref', model: 'claude-haiku-4-5' } }));
    expectOk(await api('POST', `/v1/agents/${agent.id}`, { body: { system: 'v2' } }));
    const env = expectOk(await api('POST', '/v1/environments', { body: { name: 'ref env' } }));
    const gone = expectOk(await api('POST', '/v1/environments', { body: { name: 'gone' } }));
    expectOk(await api('DELETE', `/v1/environments/${gone.id}`));
    const file = expectOk(await upload(api, 'ref'));
    const store = expectOk(await api('POST', '/v1/memory_stores', { body: { name: 'ref store' } }));
    const archivedStore = expectOk(await api('POST', '/v1/memory_stores', { body: { name: 'old store' } }));
    expectOk(await api('POST', `/v1/memory_stores/${archivedStore.id}/archive`));
    const foreignFile = expectOk(await upload(other, 'not yours'));

    const resolve = (request: any) =>
      stack.gateway.host.client.call(referenceSubjects.resolve, { request_id: 'req_x', tenant: mine.tenant }, request);

    const reply = await resolve({
      agent: { id: agent.id, version: null },
      environment_id: env.id,
      file_ids: [file.id, foreignFile.id, 'file_000000000000000000000000'],
      memory_store_ids: [store.id, archivedStore.id, 'memstore_000000000000000000000000'],
    });
    expect(reply.agent).toMatchObject({ id: agent.id, state: 'ok', version: 2, model: { type: 'model', id: 'claude-haiku-4-5', supports_system_messages: false } });
    expect(reply.environment).toEqual({ id: env.id, state: 'ok' });
    expect(reply.files).toEqual([
      { id: file.id, state: 'ok' },
      { id: foreignFile.id, state: 'not_found' },
      { id: 'file_000000000000000000000000', state: 'not_found' },
    ]);
    // With what a session snapshots of a store it attaches (name, description), where there is a store.
    expect(reply.memory_stores).toEqual([
      { id: store.id, state: 'ok', name: store.name, description: store.description },
      { id: archivedStore.id, state: 'archived', name: archivedStore.name, description: archivedStore.description },
      { id: 'memstore_000000000000000000000000', state: 'not_found' },
    ]);

    expect((await resolve({ agent: { id: agent.id, version: 1 }, environment_id: gone.id, file_ids: [], memory_store_ids: [] })).agent).toMatchObject({ state: 'ok', version: 1 });
    expect((await resolve({ agent: null, environment_id: gone.id, file_ids: [], memory_store_ids: [] })).environment).toEqual({ id: gone.id, state: 'not_found' });
    expect((await resolve({ agent: { id: agent.id, version: 7 }, environment_id: null, file_ids: [], memory_store_ids: [] })).agent).toEqual({ id: agent.id, state: 'not_found', version: null, model: null });

    expectOk(await api('POST', `/v1/agents/${agent.id}/archive`));
    expectOk(await api('POST', `/v1/environments/${env.id}/archive`));
    const after = await resolve({ agent: { id: agent.id, version: null }, environment_id: env.id, file_ids: [], memory_store_ids: [] });
    expect(after.agent).toMatchObject({ state: 'archived', version: 2 });
    expect(after.environment).toEqual({ id: env.id, state: 'archived' });

    const theirs = await stack.gateway.host.client.call(
      referenceSubjects.resolve,
      { request_id: 'req_y', tenant: { ...mine.tenant, organization_id: 'org_other' } },
      { agent: { id: agent.id, version: null }, environment_id: env.id, file_ids: [file.id], memory_store_ids: [store.id] },
    );
    expect(theirs).toEqual({
      agent: { id: agent.id, state: 'not_found', version: null, model: null },
      environment: { id: env.id, state: 'not_found' },
      files: [{ id: file.id, state: 'not_found' }],
      memory_stores: [{ id: store.id, state: 'not_found' }],
    });
  });
});

describe('events', () => {
  test('archive and delete are announced through the outbox', async () => {
    const nc = stack.service('catalog').nc;
    const sub = nc.subscribe(eventSubject(stack.env('catalog').BUS_PREFIX!, 'catalog.>'));
    const seen: Array<{ type: string; data: Record<string, string>; organization_id: string }> = [];
    const collecting = (async () => {
      for await (const msg of sub) seen.push(msg.json());
    })();
    const agent = expectOk(await api('POST', '/v1/agents', { body: { name: 'evented', model: 'claude-opus-4-5' } }));
    const env = expectOk(await api('POST', '/v1/environments', { body: { name: 'evented' } }));
    const file = expectOk(await upload(api, 'evented'));
    const store = expectOk(await api('POST', '/v1/memory_stores', { body: { name: 'evented' } }));
    expectOk(await api('POST', `/v1/agents/${agent.id}/archive`));
    expectOk(await api('POST', `/v1/environments/${env.id}/archive`));
    expectOk(await api('DELETE', `/v1/environments/${env.id}`));
    expectOk(await api('DELETE', `/v1/files/${file.id}`));
    expectOk(await api('POST', `/v1/memory_stores/${store.id}/archive`));
    // Only this test's: an earlier test's event may still be on its way (the relay publishes
    // what a handler recorded after waking up, and under a loaded suite that can be now).
    const ours = new Set([agent.id, env.id, file.id, store.id]);
    const announced = () => seen.filter((e) => ours.has(Object.values(e.data)[0]!));
    await eventually('five catalog events', () => (announced().length >= 5 ? seen : undefined), { timeoutMs: 5000 });
    sub.unsubscribe();
    await collecting;
    expect(announced().map((e) => [e.type, Object.values(e.data)[0]])).toEqual([
      ['catalog.agent.archived', agent.id],
      ['catalog.environment.archived', env.id],
      ['catalog.environment.deleted', env.id],
      ['catalog.file.deleted', file.id],
      ['catalog.memory_store.archived', store.id],
    ]);
    expect(seen.every((e) => e.organization_id === mine.tenant.organization_id)).toBe(true);
  });
});

describeEachSdk('the official SDK', (sdk) => {
  test('creates an agent, an environment, a memory store, uploads a file and auto-paginates', async () => {
    const { mine: key } = await twoTenants(stack);
    const client = new sdk.Anthropic({ apiKey: key.secret, baseURL: stack.url });
    const agent = await client.beta.agents.create({ name: 'sdk agent', model: 'claude-opus-4-5', metadata: { via: 'sdk' } });
    expect(agent).toMatchObject({ type: 'agent', version: 1, model: { id: 'claude-opus-4-5' } });
    const updated = await client.beta.agents.update(agent.id, { version: 1, system: 'new' });
    expect(updated.version).toBe(2);
    expect((await client.beta.agents.retrieve(agent.id, { version: 1 })).system).toBeNull();

    const env = await client.beta.environments.create({ name: 'sdk env', config: { type: 'cloud' } });
    expect(env.config.type).toBe('cloud');
    // The SDK's memory-store calls send `anthropic-beta: agent-memory-2026-07-22` alone, which the
    // gateway's versioning policy refuses (a present beta list must include managed-agents); until
    // that policy accepts it, the client names both betas.
    const store = await client.beta.memoryStores.create({ name: 'sdk store' });
    expect(store.type).toBe('memory_store');
    const file = await client.beta.files.upload({ file: await toFile(Buffer.from('hi'), 'a.txt', { type: 'text/plain' }) });
    expect(file).toMatchObject({ type: 'file', filename: 'a.txt', size_bytes: 2 });
    expect((await client.beta.files.retrieveMetadata(file.id)).id).toBe(file.id);

    for (let i = 0; i < 4; i++) await client.beta.agents.create({ name: `more ${i}`, model: 'claude-sonnet-4-5' });
    const seen: string[] = [];
    for await (const a of client.beta.agents.list({ limit: 2 })) seen.push(a.id);
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    expect(seen[4]).toBe(agent.id);

    const archived = await client.beta.agents.archive(agent.id);
    expect(archived.archived_at).not.toBeNull();
    expect((await client.beta.environments.delete(env.id)).type).toBe('environment_deleted');
    expect((await client.beta.files.delete(file.id)).id).toBe(file.id);
  });
});
