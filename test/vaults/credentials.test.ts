import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { setLogSink, type LogSink } from '@shared/log/logger';
import { apiClient, type ApiClient } from '../support/api';
import { Stack } from '../support/stack';
import { publishedEvents } from '../support/streams';
import { createVault } from '../support/fixtures';
import { expectCodedError, expectError, expectOk } from '../support/expect';
import { allPages } from '../support/pages';
import {
  createBearer,
  createCredential,
  createEnvVar,
  expectNoSecrets,
  rawRows,
  resolveCredentials,
  uniqueSecret,
} from '../support/vaults';

let stack: Stack;
let api: ApiClient;
let tenant: Awaited<ReturnType<Stack['createKey']>>['tenant'];
const logLines: string[] = [];
let previousSink: LogSink;
/** Every secret any test in this file sends; none may ever come back out. */
const secrets: string[] = [];
const secret = (label: string) => {
  const value = uniqueSecret(label);
  secrets.push(value);
  return value;
};
/** Every HTTP response body of this file, checked for secrets at the end. */
const responses: string[] = [];

beforeAll(async () => {
  previousSink = setLogSink((line) => void logLines.push(line));
  stack = await Stack.start({ services: ['vaults'], env: { LOG_LEVEL: 'debug' } });
  const key = await stack.createKey();
  tenant = key.tenant;
  const raw = apiClient(stack.url, key.secret);
  api = async (method, path, options) => {
    const res = await raw(method, path, options);
    responses.push(JSON.stringify(res.body));
    return res;
  };
});
afterAll(async () => {
  await stack?.stop();
  setLogSink(previousSink);
});

describe('vault credentials', () => {
  test('static_bearer: the response shows configuration only', async () => {
    const vault = await createVault(api);
    const token = secret('bearer');
    const res = await api('POST', `/v1/vaults/${vault.id}/credentials`, {
      body: {
        display_name: 'GitHub MCP',
        metadata: { owner: 'ci' },
        auth: { type: 'static_bearer', token, mcp_server_url: 'https://mcp.github.example/sse' },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      type: 'vault_credential',
      id: expect.stringMatching(/^vcrd_[0-9A-Za-z]{24}$/),
      vault_id: vault.id,
      display_name: 'GitHub MCP',
      auth: { type: 'static_bearer', mcp_server_url: 'https://mcp.github.example/sse' },
      metadata: { owner: 'ci' },
      created_at: expect.any(String),
      updated_at: res.body.created_at,
      archived_at: null,
    });
    expect(expectOk(await api('GET', `/v1/vaults/${vault.id}/credentials/${res.body.id}`), 'get')).toEqual(res.body);
  });

  test('environment_variable: name, networking and injection defaults; value never shown', async () => {
    const vault = await createVault(api);
    const value = secret('env');
    const credential = await createEnvVar(api, vault.id, 'OPENAI_API_KEY', value);
    expect(credential.auth).toEqual({
      type: 'environment_variable',
      secret_name: 'OPENAI_API_KEY',
      networking: { type: 'limited', allowed_hosts: ['api.example.com', '*.example.org'] },
      injection_location: { body: true, header: true },
    });
    const headerOnly = await createCredential(api, vault.id, {
      auth: {
        type: 'environment_variable',
        secret_name: 'OTHER',
        secret_value: secret('env2'),
        networking: { type: 'unrestricted' },
        injection_location: { body: false },
      },
    });
    expect(headerOnly.auth.injection_location).toEqual({ body: false, header: true });
    expect(headerOnly.display_name).toBeNull();
  });

  test('mcp_oauth: tokens and client secret stay sealed; the refresh configuration is shown', async () => {
    const vault = await createVault(api);
    const expires = new Date(Date.now() + 3600_000).toISOString();
    const res = await createCredential(api, vault.id, {
      auth: {
        type: 'mcp_oauth',
        mcp_server_url: 'https://mcp.linear.example/sse',
        access_token: secret('access'),
        expires_at: expires,
        refresh: {
          client_id: 'client-123',
          refresh_token: secret('refresh'),
          token_endpoint: 'https://auth.linear.example/token',
          token_endpoint_auth: { type: 'client_secret_post', client_secret: secret('client') },
          scope: 'read',
        },
      },
    });
    expect(res.auth).toEqual({
      type: 'mcp_oauth',
      mcp_server_url: 'https://mcp.linear.example/sse',
      expires_at: expires,
      refresh: {
        client_id: 'client-123',
        token_endpoint: 'https://auth.linear.example/token',
        token_endpoint_auth: { type: 'client_secret_post' },
        resource: null,
        scope: 'read',
      },
    });
    const past = await api('POST', `/v1/vaults/${vault.id}/credentials`, {
      body: { auth: { type: 'mcp_oauth', mcp_server_url: 'https://x.example', access_token: 'a', expires_at: '2020-01-01T00:00:00Z' } },
    });
    expectError(past, 400, 'invalid_request_error', 'auth.expires_at');
  });

  test('validation names the field and never echoes the secret', async () => {
    const vault = await createVault(api);
    const url = `/v1/vaults/${vault.id}/credentials`;
    const s = secret('invalid');
    expectError(await api('POST', url, { body: { auth: { type: 'static_bearer', token: s } } }), 400, 'invalid_request_error', 'auth.mcp_server_url');
    expectError(await api('POST', url, { body: { auth: { type: 'static_bearer', token: s, mcp_server_url: 'ftp://x' } } }), 400, 'invalid_request_error', 'auth.mcp_server_url');
    // Issue 24: plain http and the installation's own network (the metadata service) are refused.
    for (const mcp_server_url of ['http://mcp.example/sse', 'https://169.254.169.254/latest/meta-data/', 'https://[::1]/', 'https://192.168.0.10/']) {
      expectError(await api('POST', url, { body: { auth: { type: 'static_bearer', token: s, mcp_server_url } } }), 400, 'invalid_request_error', 'auth.mcp_server_url');
      expectError(await api('POST', url, { body: { auth: { type: 'mcp_oauth', access_token: s, mcp_server_url } } }), 400, 'invalid_request_error', 'auth.mcp_server_url');
    }
    expectError(await api('POST', url, { body: { auth: { type: 'static_bearer', token: '', mcp_server_url: 'https://x.example' } } }), 400, 'invalid_request_error', 'auth.token');
    expectError(await api('POST', url, { body: { auth: { type: 'static_bearer', token: s, mcp_server_url: 'https://x.example', extra: s } } }), 400, 'invalid_request_error', 'auth.extra');
    expectError(await api('POST', url, { body: { auth: { type: 'password', secret: s } } }), 400, 'invalid_request_error', 'auth');
    const env = (over: Record<string, unknown>) => ({
      body: { auth: { type: 'environment_variable', secret_name: 'X', secret_value: s, networking: { type: 'unrestricted' }, ...over } },
    });
    expectError(await api('POST', url, env({ secret_name: '1BAD' })), 400, 'invalid_request_error', 'auth.secret_name');
    expectError(await api('POST', url, env({ networking: { type: 'limited', allowed_hosts: ['https://x.example/path'] } })), 400, 'invalid_request_error', 'auth.networking');
    expectError(await api('POST', url, env({ networking: { type: 'limited', allowed_hosts: Array(17).fill('a.example') } })), 400, 'invalid_request_error', 'auth.networking');
    expectError(await api('POST', url, env({ injection_location: { body: false, header: false } })), 400, 'invalid_request_error', 'auth.injection_location');
    expectError(await api('POST', url, env({ secret_value: 'x'.repeat(16385) })), 400, 'invalid_request_error', 'auth.secret_value');
    expectCodedError(await api('POST', url, { body: { auth: { type: 'static_bearer', token: s, mcp_server_url: 'https://x.example' }, metadata: { ['k'.repeat(65)]: 'v' } } }), 400, 'invalid_request_error', 'invalid_metadata', 'metadata');
  });

  test('two active credentials of a vault cannot target the same env var or MCP server (409)', async () => {
    const vault = await createVault(api);
    const first = await createEnvVar(api, vault.id, 'TOKEN', secret('dup1'));
    const again = await api('POST', `/v1/vaults/${vault.id}/credentials`, {
      body: { auth: { type: 'environment_variable', secret_name: 'TOKEN', secret_value: secret('dup2'), networking: { type: 'unrestricted' } } },
    });
    expectError(again, 409, 'invalid_request_error', 'TOKEN');
    await createBearer(api, vault.id, secret('mcp1'), 'https://same.example/sse');
    const sameUrl = await api('POST', `/v1/vaults/${vault.id}/credentials`, {
      body: { auth: { type: 'static_bearer', token: secret('mcp2'), mcp_server_url: 'https://same.example/sse' } },
    });
    expectError(sameUrl, 409, 'invalid_request_error');
    // once the first is archived, the name is free again
    expectOk(await api('POST', `/v1/vaults/${vault.id}/credentials/${first.id}/archive`), 'archive');
    await createEnvVar(api, vault.id, 'TOKEN', secret('dup3'));
  });

  test('list: newest first, paginated, archived hidden by default, cursor bound to its vault', async () => {
    const vault = await createVault(api);
    const other = await createVault(api);
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await createEnvVar(api, vault.id, `VAR_${i}`, secret(`list${i}`)));
    const all = expectOk(await api('GET', `/v1/vaults/${vault.id}/credentials`), 'list');
    expect(all.data.map((c: any) => c.id).sort()).toEqual(made.map((c) => c.id).sort());
    expect(all.next_page).toBeNull();
    const pages = await allPages(api, `/v1/vaults/${vault.id}/credentials`, { limit: '2' });
    expect(pages.flat()).toEqual(all.data);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);

    const first = expectOk(await api('GET', `/v1/vaults/${vault.id}/credentials`, { query: { limit: '2' } }), 'first');
    expectError(await api('GET', `/v1/vaults/${other.id}/credentials`, { query: { limit: '2', page: first.next_page } }), 400, 'invalid_request_error', 'invalid page cursor');
    expectError(await api('GET', '/v1/vaults', { query: { limit: '2', page: first.next_page } }), 400, 'invalid_request_error', 'invalid page cursor');

    const archived = expectOk(await api('POST', `/v1/vaults/${vault.id}/credentials/${made[0].id}/archive`), 'archive');
    expect(archived.archived_at).not.toBeNull();
    expect(expectOk(await api('POST', `/v1/vaults/${vault.id}/credentials/${made[0].id}/archive`), 'again')).toEqual(archived);
    const visible = expectOk(await api('GET', `/v1/vaults/${vault.id}/credentials`), 'after archive').data.map((c: any) => c.id);
    expect(visible).not.toContain(made[0].id);
    const withArchived = expectOk(await api('GET', `/v1/vaults/${vault.id}/credentials`, { query: { include_archived: 'true' } }), 'incl');
    expect(withArchived.data.map((c: any) => c.id)).toContain(made[0].id);
    expectError(await api('GET', '/v1/vaults/vlt_nope/credentials'), 404, 'not_found_error');
  });

  test('archiving a credential destroys its sealed secret; resolve leaves it out', async () => {
    const vault = await createVault(api);
    const kept = await createEnvVar(api, vault.id, 'KEPT', secret('kept'));
    const gone = await createEnvVar(api, vault.id, 'GONE', secret('gone'));
    expectOk(await api('POST', `/v1/vaults/${vault.id}/credentials/${gone.id}/archive`), 'archive');
    const row = (await rawRows(stack, 'vault_credentials')).find((r) => r.id === gone.id);
    expect(row.sealed_secret).toBeNull();
    const resolved = await resolveCredentials(stack, tenant, [vault.id]);
    expect(resolved.vaults[0].credentials.map((c) => c.id)).toEqual([kept.id]);
  });

  test('delete credential: vault_credential_deleted, then 404', async () => {
    const vault = await createVault(api);
    const credential = await createBearer(api, vault.id, secret('del'));
    const res = await api('DELETE', `/v1/vaults/${vault.id}/credentials/${credential.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ type: 'vault_credential_deleted', id: credential.id });
    expect((await rawRows(stack, 'vault_credentials')).some((r) => r.id === credential.id)).toBe(false);
    expectError(await api('GET', `/v1/vaults/${vault.id}/credentials/${credential.id}`), 404, 'not_found_error');
    expectError(await api('DELETE', `/v1/vaults/${vault.id}/credentials/${credential.id}`), 404, 'not_found_error');
    // a credential is addressed through its own vault only
    const other = await createVault(api);
    const elsewhere = await createBearer(api, other.id, secret('elsewhere'));
    expectError(await api('GET', `/v1/vaults/${vault.id}/credentials/${elsewhere.id}`), 404, 'not_found_error');
    expectError(await api('DELETE', `/v1/vaults/${vault.id}/credentials/${elsewhere.id}`), 404, 'not_found_error');
  });

  test('update: secrets are replaced and re-sealed, configuration merged, identity immutable', async () => {
    const vault = await createVault(api);
    const oldToken = secret('old-token');
    const bearer = await createBearer(api, vault.id, oldToken, 'https://update.example/sse');
    const newToken = secret('new-token');
    const pool = stack.service('vaults').database.pool;
    const sealedOf = async (id: string) => ((await pool.query('SELECT sealed_secret FROM vault_credentials WHERE id = ?', [id])) as any)[0][0].sealed_secret;
    const sealedBefore = await sealedOf(bearer.id);
    const updated = expectOk(
      await api('POST', `/v1/vaults/${vault.id}/credentials/${bearer.id}`, {
        body: { display_name: 'rotated', metadata: { rotated: 'yes' }, auth: { type: 'static_bearer', token: newToken } },
      }),
      'update bearer',
    );
    expect(updated).toMatchObject({ id: bearer.id, display_name: 'rotated', metadata: { rotated: 'yes' }, auth: bearer.auth });
    expect(await sealedOf(bearer.id)).not.toBe(sealedBefore);
    // metadata-only updates leave the sealed secret alone
    const sealedAfter = await sealedOf(bearer.id);
    expectOk(await api('POST', `/v1/vaults/${vault.id}/credentials/${bearer.id}`, { body: { metadata: { rotated: null } } }), 'meta');
    expect(await sealedOf(bearer.id)).toBe(sealedAfter);

    const env = await createEnvVar(api, vault.id, 'UPDATABLE', secret('env-old'));
    const envValue = secret('env-new');
    const envUpdated = expectOk(
      await api('POST', `/v1/vaults/${vault.id}/credentials/${env.id}`, {
        body: { auth: { type: 'environment_variable', secret_value: envValue, networking: { type: 'unrestricted' }, injection_location: { body: false } } },
      }),
      'update env',
    );
    expect(envUpdated.auth).toEqual({
      type: 'environment_variable',
      secret_name: 'UPDATABLE',
      networking: { type: 'unrestricted' },
      injection_location: { body: false, header: true },
    });
    const resolved = (await resolveCredentials(stack, tenant, [vault.id])).vaults[0].credentials;
    expect(resolved.find((c) => c.id === bearer.id)!.auth).toEqual({ type: 'static_bearer', mcp_server_url: 'https://update.example/sse', token: newToken });
    expect(resolved.find((c) => c.id === env.id)!.auth).toMatchObject({ secret_value: envValue, injection_location: { body: false, header: true } });

    const path = `/v1/vaults/${vault.id}/credentials/${env.id}`;
    expectError(await api('POST', path, { body: { auth: { type: 'static_bearer', token: 'x' } } }), 400, 'invalid_request_error', 'auth.type');
    expectError(await api('POST', path, { body: { auth: { type: 'environment_variable', secret_name: 'RENAMED' } } }), 400, 'invalid_request_error', 'auth.secret_name');
    expectError(await api('POST', path, { body: { auth: { type: 'environment_variable', injection_location: { header: false } } } }), 400, 'invalid_request_error', 'auth.injection_location');
    expectError(await api('POST', path, { body: { display_name: '' } }), 400, 'invalid_request_error', 'display_name');
    expectOk(await api('POST', `${path}/archive`), 'archive');
    expectError(await api('POST', path, { body: { display_name: 'late' } }), 400, 'invalid_request_error', 'archived');
    expectError(await api('POST', `/v1/vaults/${vault.id}/credentials/vcrd_nope`, { body: { display_name: 'x' } }), 404, 'not_found_error');
  });

  test('update mcp_oauth: new tokens and client secret, the endpoint auth method and client stay', async () => {
    const vault = await createVault(api);
    const created = await createCredential(api, vault.id, {
      auth: {
        type: 'mcp_oauth',
        mcp_server_url: 'https://oauth-update.example/sse',
        access_token: secret('oa-access'),
        refresh: {
          client_id: 'cid',
          refresh_token: secret('oa-refresh'),
          token_endpoint: 'https://oauth-update.example/token',
          token_endpoint_auth: { type: 'client_secret_basic', client_secret: secret('oa-client') },
          scope: 'read write',
        },
      },
    });
    const access = secret('oa-access2');
    const clientSecret = secret('oa-client2');
    const updated = expectOk(
      await api('POST', `/v1/vaults/${vault.id}/credentials/${created.id}`, {
        body: {
          auth: {
            type: 'mcp_oauth',
            access_token: access,
            refresh: { scope: '', token_endpoint_auth: { type: 'client_secret_post', client_secret: clientSecret } },
          },
        },
      }),
      'update oauth',
    );
    expect(updated.auth.refresh).toEqual({
      client_id: 'cid',
      token_endpoint: 'https://oauth-update.example/token',
      token_endpoint_auth: { type: 'client_secret_basic' },
      resource: null,
      scope: null,
    });
    const [resolved] = (await resolveCredentials(stack, tenant, [vault.id])).vaults[0].credentials;
    expect(resolved.auth).toMatchObject({ access_token: access, refresh: { token_endpoint_auth: { type: 'client_secret_basic', client_secret: clientSecret } } });
  });

  test('resolve returns the decrypted credentials per vault, in request order, with states', async () => {
    const vault = await createVault(api);
    const token = secret('resolve-bearer');
    const value = secret('resolve-env');
    const bearer = await createBearer(api, vault.id, token, 'https://resolve.example/sse');
    const env = await createEnvVar(api, vault.id, 'RESOLVE_ME', value);
    const archived = await createVault(api);
    expectOk(await api('POST', `/v1/vaults/${archived.id}/archive`), 'archive');
    const empty = await createVault(api);

    const reply = await resolveCredentials(stack, tenant, ['vlt_000000000000000000000000', vault.id, archived.id, empty.id]);
    expect(reply.vaults.map((v) => [v.id, v.state])).toEqual([
      ['vlt_000000000000000000000000', 'not_found'],
      [vault.id, 'ok'],
      [archived.id, 'archived'],
      [empty.id, 'ok'],
    ]);
    const credentials = reply.vaults[1].credentials;
    expect(credentials).toEqual([
      { id: bearer.id, display_name: 'bearer', auth: { type: 'static_bearer', mcp_server_url: 'https://resolve.example/sse', token } },
      {
        id: env.id,
        display_name: null,
        auth: {
          type: 'environment_variable',
          secret_name: 'RESOLVE_ME',
          secret_value: value,
          networking: { type: 'limited', allowed_hosts: ['api.example.com', '*.example.org'] },
          injection_location: { body: true, header: true },
        },
      },
    ]);
    expect(reply.vaults[3].credentials).toEqual([]);
  });

  test('resolve is tenant-scoped: another tenant gets not_found', async () => {
    const vault = await createVault(api);
    await createBearer(api, vault.id, secret('scoped'));
    const other = (await stack.createKey()).tenant;
    expect((await resolveCredentials(stack, other, [vault.id])).vaults).toEqual([{ id: vault.id, state: 'not_found', credentials: [] }]);
  });

  test('a ciphertext copied to another credential row does not decrypt: the vault is unreadable, nothing leaks', async () => {
    const vault = await createVault(api);
    const victim = await createBearer(api, vault.id, secret('victim'));
    const target = await createBearer(api, vault.id, secret('target'));
    const pool = stack.service('vaults').database.pool;
    const [[victimRow]] = (await pool.query('SELECT sealed_secret FROM vault_credentials WHERE id = ?', [victim.id])) as any;
    await pool.query('UPDATE vault_credentials SET sealed_secret = ? WHERE id = ?', [victimRow.sealed_secret, target.id]);

    const before = logLines.length;
    const reply = await resolveCredentials(stack, tenant, [vault.id]);
    expect(reply.vaults).toEqual([{ id: vault.id, state: 'unreadable', credentials: [] }]);
    const logged = logLines.slice(before).map((l) => JSON.parse(l));
    const failure = logged.find((l) => l.msg === 'vault credentials could not be opened');
    expect(failure).toMatchObject({ level: 'error', vault_id: vault.id, reason: 'a data key or ciphertext did not authenticate' });
    expectNoSecrets(JSON.stringify(reply), secrets, 'resolve reply');
    expect(JSON.stringify(logged)).not.toContain(victimRow.sealed_secret);

    // the same ciphertext in another vault's row fails too (other data key, other record id)
    const otherVault = await createVault(api);
    const stranger = await createBearer(api, otherVault.id, secret('stranger'));
    await pool.query('UPDATE vault_credentials SET sealed_secret = ? WHERE id = ?', [victimRow.sealed_secret, stranger.id]);
    expect((await resolveCredentials(stack, tenant, [otherVault.id])).vaults[0].state).toBe('unreadable');

    // the HTTP side never decrypts, so it still answers with metadata only
    expect((await api('GET', `/v1/vaults/${vault.id}/credentials/${target.id}`)).status).toBe(200);
  });

  test('a wrapped data key moved to another vault does not unwrap', async () => {
    const a = await createVault(api);
    const b = await createVault(api);
    await createBearer(api, b.id, secret('moved-key'));
    const pool = stack.service('vaults').database.pool;
    const [[rowA]] = (await pool.query('SELECT wrapped_data_key FROM vaults WHERE id = ?', [a.id])) as any;
    await pool.query('UPDATE vaults SET wrapped_data_key = ? WHERE id = ?', [rowA.wrapped_data_key, b.id]);
    expect((await resolveCredentials(stack, tenant, [b.id])).vaults[0].state).toBe('unreadable');
  });

  test('deleting a vault leaves nothing decryptable: key and ciphertexts are gone', async () => {
    const vault = await createVault(api);
    const c1 = await createBearer(api, vault.id, secret('shred1'));
    const c2 = await createEnvVar(api, vault.id, 'SHRED', secret('shred2'));
    expectOk(await api('POST', `/v1/vaults/${vault.id}/credentials/${c1.id}/archive`), 'archive one');
    expect(expectOk(await api('DELETE', `/v1/vaults/${vault.id}`), 'delete')).toEqual({ type: 'vault_deleted', id: vault.id });
    const pool = stack.service('vaults').database.pool;
    const [[counts]] = (await pool.query(
      'SELECT (SELECT COUNT(*) FROM vaults WHERE id = ?) AS vaults, (SELECT COUNT(*) FROM vault_credentials WHERE vault_id = ? OR id IN (?, ?)) AS credentials',
      [vault.id, vault.id, c1.id, c2.id],
    )) as any;
    expect(Number(counts.vaults)).toBe(0);
    expect(Number(counts.credentials)).toBe(0);
    expect((await resolveCredentials(stack, tenant, [vault.id])).vaults[0].state).toBe('not_found');
  });

  test('another tenant gets 404 on every vault and credential route', async () => {
    const vault = await createVault(api);
    const credential = await createBearer(api, vault.id, secret('tenant'));
    const otherOrg = apiClient(stack.url, (await stack.createKey()).secret);
    const otherWorkspace = apiClient(stack.url, (await stack.createKey({ org: tenant.organization_id })).secret);
    const v = `/v1/vaults/${vault.id}`;
    const c = `${v}/credentials/${credential.id}`;
    for (const intruder of [otherOrg, otherWorkspace]) {
      const attempts = await Promise.all([
        intruder('GET', v),
        intruder('POST', v, { body: { display_name: 'mine now' } }),
        intruder('POST', `${v}/archive`),
        intruder('DELETE', v),
        intruder('POST', `${v}/credentials`, { body: { auth: { type: 'static_bearer', token: 'x', mcp_server_url: 'https://evil.example' } } }),
        intruder('GET', `${v}/credentials`),
        intruder('GET', c),
        intruder('POST', c, { body: { display_name: 'mine now' } }),
        intruder('POST', `${c}/archive`),
        intruder('DELETE', c),
      ]);
      for (const res of attempts) expectError(res, 404, 'not_found_error');
      const list = expectOk(await intruder('GET', '/v1/vaults', { query: { include_archived: 'true' } }), 'list');
      expect(list.data.map((x: any) => x.id)).not.toContain(vault.id);
    }
    // nothing changed for the owner
    const after = expectOk(await api('GET', v), 'owner get');
    expect(after).toEqual(vault);
    expect(expectOk(await api('GET', c), 'owner credential')).toEqual(credential);
  });

  test('no secret appears in any HTTP response, any log line, or the database in plain text', async () => {
    expect(secrets.length).toBeGreaterThan(20);
    expect(responses.length).toBeGreaterThan(50);
    expectNoSecrets(responses.join('\n'), secrets, 'HTTP responses');
    // debug logging was on, and every request was logged
    expect(logLines.some((l) => l.includes('"level":"debug"') || l.includes('"msg":"http request"'))).toBe(true);
    expect(logLines.some((l) => l.includes('vaults.credentials.create'))).toBe(true);
    expectNoSecrets(logLines.join('\n'), secrets, 'log lines');
    for (const table of ['vaults', 'vault_credentials'] as const) {
      const rows = await rawRows(stack, table);
      expect(rows.length).toBeGreaterThan(0);
      expectNoSecrets(JSON.stringify(rows), secrets, `table ${table}`);
    }
    // What the service announced (an event leaves the outbox once published).
    const announced = await publishedEvents(stack, 'vaults', 'vaults');
    expect(announced.length).toBeGreaterThan(0);
    expectNoSecrets(JSON.stringify(announced), secrets, 'published events');
    const [dump] = (await stack.service('vaults').database.pool.query(
      'SELECT GROUP_CONCAT(sealed_secret SEPARATOR "|") AS all_sealed FROM vault_credentials',
    )) as any;
    expectNoSecrets(String(dump[0].all_sealed), secrets, 'sealed secrets');
  });
});
