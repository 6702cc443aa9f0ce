/**
 * `mcp_oauth` credentials (issue 28), through the real stack and the unchanged SDK: a real MCP
 * server on loopback that takes one access token, and a real OAuth token endpoint that exchanges
 * the refresh token for a new one. When the server refuses the stored access token, the runtime
 * has the vaults service exchange the refresh token (once, however many ask at the same time),
 * the new tokens are stored sealed, and the call is tried again; `mcpOAuthValidate` probes the
 * server the same way. No token reaches an event, a model request, a reply or the API.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { systemContext } from '@shared/bus/call-context';
import { vaultCredentialSubjects } from '@shared/bus/subjects/vaults';
import { tokenDigest } from '@shared/crypto/token-digest';
import { newId } from '@shared/ids/ids';
import { apiClient } from '../support/api';
import { eventually } from '../support/eventually';
import { expectOk } from '../support/expect';
import { createAgent, createEnvironment, createVault } from '../support/fixtures';
import { TestMcpServer } from '../support/mcp-server';
import { sessionLog, useRuntimeWorld } from '../support/runtime-world';
import { describeEachSdk, SDKS, type SdkUnderTest } from '../support/sdk';
import { TestTokenEndpoint } from '../support/token-endpoint';

const CLIENT = { id: 'agents-client', secret: `client-secret-${crypto.randomUUID()}`, auth: 'client_secret_basic' as const };

let current: SdkUnderTest = SDKS[0]!;
let mcp: TestMcpServer;
let endpoint: TestTokenEndpoint;
/** Every token and secret of the test, none of which may appear anywhere but where it is sent. */
const secrets = new Set<string>([CLIENT.secret]);

beforeAll(async () => {
  mcp = await TestMcpServer.start(`access-0-${crypto.randomUUID()}`);
  endpoint = await TestTokenEndpoint.start(CLIENT, `refresh-0-${crypto.randomUUID()}`);
  endpoint.onIssue = (token) => {
    secrets.add(token);
    mcp.token = token;
  };
});
afterAll(async () => {
  await mcp?.stop();
  await endpoint?.stop();
});

const world = useRuntimeWorld({
  // The catalog and vaults take loopback http:// URLs; the runtime may reach the MCP server, the vaults service the token endpoint.
  env: () => ({ ALLOW_PRIVATE_MCP_URLS: 'true', OAUTH_REFRESH_ALLOW_PRIVATE_HOSTS: endpoint.hostPort }),
  runtimeEnv: () => ({ MCP_ALLOW_PRIVATE_HOSTS: mcp.hostPort }),
});
const sdk = () => world.sdk(current.Anthropic);
const usage = { input_tokens: 10, output_tokens: 5 };

/** The MCP server now takes a token the credential does not hold: its stored one is refused, as an expired one is. */
function serverRotates(): void {
  mcp.token = `rotated-${crypto.randomUUID()}`;
  secrets.add(mcp.token);
}

const expectNoSecret = (where: string, value: unknown) => {
  const text = JSON.stringify(value);
  for (const secret of [...secrets, endpoint.refreshToken]) expect({ where, leaked: text.includes(secret) }).toEqual({ where, leaked: false });
};

/** A vault with an mcp_oauth credential for the MCP server holding the server's current access token and the endpoint's refresh token. */
async function oauthCredential(api = world.api, tokenEndpoint = endpoint.url) {
  const vault = await createVault(api);
  secrets.add(endpoint.refreshToken);
  const credential = expectOk(
    await api('POST', `/v1/vaults/${vault.id}/credentials`, {
      body: {
        display_name: 'orders oauth',
        auth: {
          type: 'mcp_oauth',
          mcp_server_url: mcp.url,
          access_token: mcp.token,
          expires_at: new Date(Date.now() + 3_600_000).toISOString(),
          refresh: {
            client_id: CLIENT.id,
            refresh_token: endpoint.refreshToken,
            token_endpoint: tokenEndpoint,
            token_endpoint_auth: { type: 'client_secret_basic', client_secret: CLIENT.secret },
            scope: 'orders:read',
          },
        },
      },
    }),
  ) as { id: string };
  return { vaultId: vault.id as string, credentialId: credential.id };
}

const validate = (ids: { vaultId: string; credentialId: string }) => sdk().beta.vaults.credentials.mcpOAuthValidate(ids.credentialId, { vault_id: ids.vaultId });

beforeEach(() => {
  endpoint.refuseAll = false;
});

describeEachSdk('mcp_oauth credentials: refreshed when refused, validated live', (under) => {
  beforeAll(() => {
    current = under;
  });

  test('the server refuses the stored access token: the refresh token is exchanged, the MCP call succeeds, and the vault holds the new token', async () => {
    const ids = await oauthCredential();
    serverRotates();
    const exchangesBefore = endpoint.requests.length;
    const agent = await createAgent(world.api, {
      mcp_servers: [{ name: 'orders', type: 'url', url: mcp.url }],
      tools: [
        {
          type: 'mcp_toolset',
          mcp_server_name: 'orders',
          default_config: { permission_policy: { type: 'always_allow' } },
          configs: [{ name: 'slow', enabled: false }],
        },
      ],
    });
    const environment = await createEnvironment(world.api);
    const before = world.model.requests.length;
    world.model.reply(
      { content: [{ type: 'tool_use', id: 'toolu_oauth', name: 'lookup_order', input: { order_id: 'B-2' } }], stop_reason: 'tool_use', usage },
      { content: [{ type: 'text', text: 'Shipped.' }], stop_reason: 'end_turn', usage },
    );
    const session = await sdk().beta.sessions.create({ agent: agent.id, environment_id: environment.id, vault_ids: [ids.vaultId] });
    await sdk().beta.sessions.events.send(session.id, { events: [{ type: 'user.message', content: [{ type: 'text', text: 'Where is B-2?' }] }] });
    const log = await eventually(
      'the turn to end',
      async () => {
        const events = await sessionLog(sdk(), session.id);
        const last = events.at(-1);
        return last?.type === 'session.status_idle' && last.stop_reason?.type === 'end_turn' ? events : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 50 },
    );
    expect(log.find((e) => e.type === 'session.error')?.error).toBeUndefined();
    expect(log.find((e) => e.type === 'agent.mcp_tool_result')).toMatchObject({ content: [{ type: 'text', text: 'order B-2: shipped' }], is_error: false });
    expect(log.some((e) => e.type === 'session.error')).toBe(false);

    // One exchange (the listing's 401), standard form, the client authenticated as the credential says.
    const exchanges = endpoint.requests.slice(exchangesBefore);
    expect(exchanges.length).toBe(1);
    expect(exchanges[0]!.contentType).toBe('application/x-www-form-urlencoded');
    expect(exchanges[0]!.form).toMatchObject({ grant_type: 'refresh_token', scope: 'orders:read' });
    expect(exchanges[0]!.authorization).toStartWith('Basic ');
    expect(mcp.authorizations.at(-1)).toBe(`Bearer ${mcp.token}`);

    // The vault holds the new token (and the rotated refresh token): the probe needs no refresh.
    const validation = await validate(ids);
    expect(validation).toMatchObject({ type: 'vault_credential_validation', status: 'valid', credential_id: ids.credentialId, vault_id: ids.vaultId, has_refresh_token: true, mcp_probe: null, refresh: null });
    expect(endpoint.requests.length).toBe(exchangesBefore + 1);
    const shown = await sdk().beta.vaults.credentials.retrieve(ids.credentialId, { vault_id: ids.vaultId });
    expect(Date.parse((shown.auth as { expires_at: string }).expires_at)).toBeGreaterThan(Date.now() + 3_000_000);

    expectNoSecret('the session log', log);
    expectNoSecret('the model requests', world.model.requests.slice(before));
    expectNoSecret('the validation', validation);
    expectNoSecret('the credential', shown);
  }, 60_000);

  test('mcpOAuthValidate: a refused token is refreshed and reported valid; a refused refresh is invalid, with both answers scrubbed', async () => {
    const ids = await oauthCredential();
    serverRotates();
    const recovered = await validate(ids);
    expect(recovered).toMatchObject({ status: 'valid', mcp_probe: null, refresh: { status: 'succeeded', http_response: null }, has_refresh_token: true });
    expect(Date.parse(recovered.validated_at)).not.toBeNaN();

    serverRotates();
    endpoint.refuseAll = true;
    const refused = await validate(ids);
    expect(refused.status).toBe('invalid');
    expect(refused.mcp_probe).toMatchObject({ method: 'initialize', http_response: { status_code: 401, content_type: 'application/json', body_truncated: false } });
    expect(refused.refresh).toMatchObject({ status: 'failed', http_response: { status_code: 400, content_type: 'application/json' } });
    // The endpoint echoed the refresh token in its error: the reply has it scrubbed.
    expect(refused.refresh!.http_response!.body).toContain('invalid_grant');
    expect(refused.refresh!.http_response!.body).toContain('[redacted]');
    expectNoSecret('the validations', [recovered, refused]);
  }, 60_000);

  test('a refresh that fails ends the turn with mcp_authentication_failed_error, never a hang', async () => {
    const ids = await oauthCredential();
    serverRotates();
    endpoint.refuseAll = true;
    const agent = await createAgent(world.api, { mcp_servers: [{ name: 'orders', type: 'url', url: mcp.url }], tools: [{ type: 'mcp_toolset', mcp_server_name: 'orders' }] });
    const environment = await createEnvironment(world.api);
    const session = await sdk().beta.sessions.create({ agent: agent.id, environment_id: environment.id, vault_ids: [ids.vaultId] });
    await sdk().beta.sessions.events.send(session.id, { events: [{ type: 'user.message', content: [{ type: 'text', text: 'Where is B-2?' }] }] });
    const error = await eventually(
      'the session error',
      async () => (await sessionLog(sdk(), session.id)).find((e) => e.type === 'session.error'),
      { timeoutMs: 30_000, intervalMs: 50 },
    );
    expect(error.error).toMatchObject({ type: 'mcp_authentication_failed_error', mcp_server_name: 'orders' });
    expect(error.error.message).toContain('HTTP 400');
    expectNoSecret('the session log', await sessionLog(sdk(), session.id));
  }, 60_000);

  test('mcpOAuthValidate on another kind of credential is 400; on an unknown one 404', async () => {
    const vault = await createVault(world.api);
    const bearer = expectOk(
      await world.api('POST', `/v1/vaults/${vault.id}/credentials`, { body: { auth: { type: 'static_bearer', token: 'static-token', mcp_server_url: mcp.url } } }),
    ) as { id: string };
    const Anthropic = current.Anthropic;
    // Caught by hand: the SDK's APIPromise is lazy, and `expect(...).rejects` does not await it.
    expect(await validate({ vaultId: vault.id, credentialId: bearer.id }).catch((err: unknown) => err)).toBeInstanceOf(Anthropic.BadRequestError);
    expect(await validate({ vaultId: vault.id, credentialId: 'vcrd_011CZkZEMt8gZan2iYPQfSkw' }).catch((err: unknown) => err)).toBeInstanceOf(Anthropic.NotFoundError);
  }, 60_000);

  test('a token endpoint on a host the operator did not allow is never called: the refresh is a connect_error, the verdict unknown', async () => {
    const ids = await oauthCredential(world.api, 'http://127.0.0.1:9/oauth/token');
    serverRotates();
    const validation = await validate(ids);
    expect(validation).toMatchObject({ status: 'unknown', refresh: { status: 'connect_error', http_response: null }, mcp_probe: { method: 'initialize' } });
  }, 60_000);
});

describe('a concurrent refresh is resolved once', () => {
  test('two refreshes of the same refused token: one exchange, both callers get the token it stored', async () => {
    const tenant = { organization_id: `org_${crypto.randomUUID().slice(0, 8)}`, workspace_id: `wrkspc_${crypto.randomUUID().slice(0, 8)}`, scope: 'read_write' as const, key_id: 'k' };
    const key = await world.stack.createKey({ org: tenant.organization_id, workspace: tenant.workspace_id });
    const ids = await oauthCredential(apiClient(world.stack.url, key.secret));
    const seen = mcp.token;
    serverRotates();
    const before = endpoint.requests.length;
    // As the runtime asks: its own identity on the bus.
    const runtime = world.stack.service('runtime').client;
    const refresh = () =>
      runtime.call(vaultCredentialSubjects.refresh, systemContext(newId('request'), tenant), {
        vault_id: ids.vaultId,
        credential_id: ids.credentialId,
        seen_access_token_sha256: tokenDigest(seen),
      });
    const [a, b] = await Promise.all([refresh(), refresh()]);
    expect(endpoint.requests.length).toBe(before + 1);
    expect(a.status).toBe('succeeded');
    expect(b.status).toBe('succeeded');
    if (a.status !== 'succeeded' || b.status !== 'succeeded') return;
    expect(a.access_token).toBe(b.access_token);
    expect(a.access_token).toBe(mcp.token);
    expect([a.exchanged, b.exchanged].toSorted()).toEqual([false, true]);
  }, 60_000);
});
