import { describe, expect, test } from 'bun:test';
import type { McpToolset } from '@shared/schema/agent-mcp-tools';
import { validationVerdict } from '../../../services/runtime/src/domain/credential-validation';
import { scrubSecrets } from '@shared/http/captured-response';
import { parseAllowedHosts, refusedMcpAddresses, refusedMcpUrl } from '@shared/agents/mcp-hosts';
import { bearerFor, credentialFor, mcpFailureEvents, oauthExpired, mcpResultContent, mcpToolsetsOf, offeredMcpTools } from '../../../services/runtime/src/domain/mcp-tools';
import { buildModelRequest } from '../../../services/runtime/src/domain/model-request';
import { responseEvents } from '../../../services/runtime/src/domain/model-response';
import { nextStep } from '../../../services/runtime/src/domain/next-step';
import { readLogState } from '../../../services/runtime/src/domain/session-log';
import { idleFor, loggedEvents, sessionAgent, userMessage } from './session-log-fixture';

/** The rules of an agent's MCP tools (issue 28): what is offered, how calls are tracked, which credential, which host. */

const toolset = (overrides: Partial<McpToolset> = {}): McpToolset => ({
  type: 'mcp_toolset',
  mcp_server_name: 'docs',
  configs: [],
  default_config: { enabled: true, permission_policy: { type: 'always_allow' } },
  ...overrides,
});
const server = { name: 'docs', type: 'url' as const, url: 'https://mcp.example.com/mcp' };
const tool = (name: string) => ({ name, description: `${name} tool`, input_schema: { type: 'object' as const, properties: {} } });

describe('which MCP tools the model is offered', () => {
  test('a toolset\'s server is listed unless nothing of it is enabled', () => {
    expect(mcpToolsetsOf(sessionAgent({ tools: [toolset()], mcp_servers: [server] }))).toEqual([{ server, toolset: toolset() }]);
    const off = toolset({ default_config: { enabled: false, permission_policy: { type: 'always_allow' } } });
    expect(mcpToolsetsOf(sessionAgent({ tools: [off], mcp_servers: [server] }))).toEqual([]);
    const one = toolset({ ...off, configs: [{ name: 'search', enabled: true, permission_policy: { type: 'always_ask' } }] });
    expect(mcpToolsetsOf(sessionAgent({ tools: [one], mcp_servers: [server] }))).toHaveLength(1);
  });

  test('per-tool configs override the default; disabled tools, taken names and names the API refuses are left out', () => {
    const configured = toolset({
      configs: [
        { name: 'delete', enabled: false, permission_policy: { type: 'always_allow' } },
        { name: 'write', enabled: true, permission_policy: { type: 'always_ask' } },
      ],
    });
    const offered = offeredMcpTools([{ server, toolset: configured, tools: [tool('search'), tool('delete'), tool('write'), tool('bash'), tool('has.dot')] }], new Set(['bash']));
    expect(offered.tools.map((t) => t.name)).toEqual(['search', 'write']);
    expect([...offered.routes]).toEqual([
      ['search', { server: 'docs', permission: 'allow' }],
      ['write', { server: 'docs', permission: 'ask' }],
    ]);
    expect(offered.skipped).toEqual(['docs/bash', 'docs/has.dot']);
  });
});

describe('an MCP call through the log', () => {
  const use = { type: 'agent.mcp_tool_use', id: 'sevt_mcp', name: 'search', mcp_server_name: 'docs', input: { q: 'x' }, evaluated_permission: 'allow' };
  const end = { type: 'span.model_request_end', is_error: false, model_request_start_id: 's', model_usage: { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } };

  test('a model tool_use of an MCP tool is recorded as agent.mcp_tool_use naming the server and the tool', () => {
    const message = { content: [{ type: 'tool_use', id: 'toolu_1', name: 'search', input: { q: 'x' } }], stop_reason: 'tool_use', usage: { input_tokens: 1, output_tokens: 1 } };
    const events = responseEvents(message as never, 'start', new Map(), { graded: false, mcp: new Map([['search', { server: 'docs', permission: 'ask' as const }]]) });
    expect(events[0]).toEqual({ type: 'agent.mcp_tool_use', name: 'search', mcp_server_name: 'docs', input: { q: 'x' }, evaluated_permission: 'ask' });
  });

  test('an allowed call is the runtime\'s to make; its result is input the model answers next', () => {
    const called = loggedEvents(userMessage('hi'), use, end);
    expect(nextStep(readLogState(called), { reached: false })).toEqual({
      kind: 'callMcp',
      use: { id: 'sevt_mcp', kind: 'agent.mcp_tool_use', awaitingConfirmation: false, mcp: { server: 'docs', tool: 'search', input: { q: 'x' } } },
    });
    const answered = loggedEvents(userMessage('hi'), use, end, { type: 'agent.mcp_tool_result', mcp_tool_use_id: 'sevt_mcp', content: [{ type: 'text', text: '42' }], is_error: false });
    expect(nextStep(readLogState(answered), { reached: false })).toEqual({ kind: 'callModel', startId: undefined });
    const request = buildModelRequest(sessionAgent(), answered, [], 100);
    expect(request.messages.at(-2)).toEqual({ role: 'assistant', content: [{ type: 'tool_use', id: 'sevt_mcp', name: 'search', input: { q: 'x' } }] });
    expect(request.messages.at(-1)).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'sevt_mcp', content: [{ type: 'text', text: '42' }], is_error: false }] });
  });

  test('always_ask waits for the client\'s confirmation; allowed, the runtime calls; denied, the model hears of it', () => {
    const asking = { ...use, evaluated_permission: 'ask' };
    const waiting = loggedEvents(userMessage('hi'), asking, end);
    expect(nextStep(readLogState(waiting), { reached: false }) as unknown).toEqual({ kind: 'append', events: [idleFor('requires_action', { event_ids: ['sevt_mcp'] })] });
    const allowed = loggedEvents(userMessage('hi'), asking, end, idleFor('requires_action', { event_ids: ['sevt_mcp'] }), { type: 'user.tool_confirmation', tool_use_id: 'sevt_mcp', result: 'allow' });
    expect(nextStep(readLogState(allowed), { reached: false }).kind).toBe('callMcp');
    const denied = loggedEvents(userMessage('hi'), asking, end, { type: 'user.tool_confirmation', tool_use_id: 'sevt_mcp', result: 'deny' });
    expect(nextStep(readLogState(denied), { reached: false }).kind).toBe('callModel');
  });

  test('an interrupt answers an open MCP call as stopped', () => {
    const step = nextStep(readLogState(loggedEvents(userMessage('hi'), use, end, { type: 'user.interrupt' })), { reached: false });
    expect(step).toMatchObject({ kind: 'append', events: [{ type: 'agent.mcp_tool_result', mcp_tool_use_id: 'sevt_mcp', is_error: true }, idleFor('end_turn')] });
  });

  test('a server that cannot be used answers the call, reports the SDK\'s error kind naming the server, and rests the session', () => {
    expect(mcpFailureEvents({ server: 'docs', kind: 'authentication', message: 'refused' }, 'sevt_mcp') as unknown[]).toEqual([
      { type: 'agent.mcp_tool_result', mcp_tool_use_id: 'sevt_mcp', content: [{ type: 'text', text: 'refused' }], is_error: true },
      { type: 'session.error', error: { type: 'mcp_authentication_failed_error', message: 'refused', mcp_server_name: 'docs', retry_status: { type: 'exhausted' } } },
      idleFor('retries_exhausted'),
    ]);
    expect(mcpFailureEvents({ server: 'docs', kind: 'connection', message: 'down' })[0]).toMatchObject({ error: { type: 'mcp_connection_failed_error' } });
  });
});

describe('the credential of a server', () => {
  const vault = (id: string, credentials: unknown[], state = 'ok') => ({ id, state, credentials }) as never;
  const bearer = (url: string, token: string) => ({ id: 'c', display_name: null, auth: { type: 'static_bearer', mcp_server_url: url, token } });

  test('the first credential in vault order whose URL is the server\'s; mcp_oauth gives its access token', () => {
    const vaults = [
      vault('v0', [bearer('https://mcp.example.com/mcp', 'from-archived')], 'archived'),
      vault('v1', [bearer('https://other.example.com/mcp', 'other'), bearer('https://MCP.example.com:443/mcp/', 'first')]),
      vault('v2', [bearer('https://mcp.example.com/mcp', 'second')]),
    ];
    expect(bearerFor(server.url, vaults)).toBe('first');
    const oauth = { id: 'c', display_name: null, auth: { type: 'mcp_oauth', mcp_server_url: server.url, access_token: 'oauth-access' } };
    expect(bearerFor(server.url, [vault('v', [oauth])])).toBe('oauth-access');
    expect(bearerFor(server.url, [vault('v', [bearer('https://mcp.example.com/other', 'x')])])).toBeUndefined();
  });

  test('an mcp_oauth access token is refreshed before it is sent once past its expiry by the clock, when it can be', () => {
    const refresh = { client_id: 'c', refresh_token: 'r', token_endpoint: 'https://auth.example.com/token', token_endpoint_auth: { type: 'none' } };
    const oauth = (expires_at: string | null, withRefresh = true) =>
      credentialFor(server.url, [vault('v', [{ id: 'c', display_name: null, auth: { type: 'mcp_oauth', mcp_server_url: server.url, access_token: 'a', expires_at, refresh: withRefresh ? refresh : null } }])]);
    const now = new Date('2026-05-01T12:00:00Z');
    expect(oauthExpired(oauth('2026-05-01T12:00:00.000Z'), now)).toBe(true);
    expect(oauthExpired(oauth('2026-05-01T12:00:01.000Z'), now)).toBe(false);
    // Unknown expiry: learnt from a 401. No refresh token: the stored token is sent as it is.
    expect(oauthExpired(oauth(null), now)).toBe(false);
    expect(oauthExpired(oauth('2026-04-01T00:00:00.000Z', false), now)).toBe(false);
    expect(oauthExpired(credentialFor(server.url, [vault('v', [bearer(server.url, 't')])]), now)).toBe(false);
    expect(credentialFor(server.url, [vault('vlt_9', [bearer(server.url, 't')])])).toMatchObject({ vault_id: 'vlt_9', credential_id: 'c' });
  });
});

describe('the verdict of a credential probe', () => {
  const ok = { ok: true } as const;
  const refused = (status: number) => ({ ok: false, method: 'initialize', status, http_response: { status_code: status, content_type: 'application/json', body: '{}', body_truncated: false } }) as const;
  const unreachable = { ok: false, method: 'initialize', status: undefined, http_response: null } as const;

  test('valid when the last probe authenticated; invalid when the token is refused and no refresh recovers it; unknown when nothing could tell', () => {
    expect(validationVerdict(ok)).toEqual({ status: 'valid', mcp_probe: null, refresh: null });
    expect(validationVerdict(refused(403)).status).toBe('invalid');
    expect(validationVerdict(unreachable)).toEqual({ status: 'unknown', mcp_probe: { method: 'initialize', http_response: null }, refresh: null });
    const succeeded = { status: 'succeeded', access_token: 'n', exchanged: true } as const;
    expect(validationVerdict(refused(401), succeeded, ok)).toEqual({ status: 'valid', mcp_probe: null, refresh: { status: 'succeeded', http_response: null } });
    expect(validationVerdict(refused(401), succeeded, refused(401)).status).toBe('invalid');
    expect(validationVerdict(refused(401), { status: 'no_refresh_token' })).toMatchObject({ status: 'invalid', refresh: { status: 'no_refresh_token', http_response: null } });
    const failed = { status: 'failed', http_response: { status_code: 400, content_type: 'application/json', body: '{"error":"invalid_grant"}', body_truncated: false } } as const;
    expect(validationVerdict(refused(401), failed)).toMatchObject({ status: 'invalid', refresh: failed });
    expect(validationVerdict(refused(401), { status: 'connect_error', message: 'x' })).toMatchObject({ status: 'unknown', refresh: { status: 'connect_error', http_response: null } });
  });
});

describe('what a token endpoint or MCP server answered, as a reply may show it', () => {
  test('secrets named and token fields are scrubbed before the body is cut', () => {
    const body = scrubSecrets('{"error":"invalid_grant","refresh_token":"rt-1","hint":"used rt-2 and cs"}', ['rt-2', 'cs']);
    expect(body).toBe('{"error":"invalid_grant","refresh_token":"[redacted]","hint":"used [redacted] and [redacted]"}');
  });
});

describe('what the server answered, as tool result blocks', () => {
  test('text and readable images pass; other content is named', () => {
    expect(
      mcpResultContent({
        content: [
          { type: 'text', text: 'hello' },
          { type: 'image', mimeType: 'image/png', data: 'aGk=' },
          { type: 'audio', mimeType: 'audio/wav', data: 'x' },
          { type: 'resource', resource: { uri: 'file:///a', text: 'inline' } },
        ],
      }),
    ).toEqual([
      { type: 'text', text: 'hello' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'aGk=' } },
      { type: 'text', text: '[audio content the model cannot read]' },
      { type: 'text', text: 'inline' },
    ]);
    expect(mcpResultContent({ content: [], structuredContent: { n: 1 } })).toEqual([{ type: 'text', text: '{"n":1}' }]);
  });
});

describe('where the runtime may connect', () => {
  const none = parseAllowedHosts('');
  test('private, loopback and link-local addresses are refused, as literals and as what a name resolves to', () => {
    expect(refusedMcpUrl(new URL('https://127.0.0.1/mcp'), none)).toContain('loopback');
    expect(refusedMcpUrl(new URL('https://169.254.169.254/'), none)).toContain('link-local');
    expect(refusedMcpUrl(new URL('https://mcp.example.com/'), none)).toBeUndefined();
    expect(refusedMcpAddresses('mcp.example.com', ['93.184.216.34'])).toBeUndefined();
    expect(refusedMcpAddresses('evil.example.com', ['93.184.216.34', '10.0.0.5'])).toContain('10.0.0.5');
    expect(refusedMcpAddresses('evil.example.com', ['::1'])).toContain('loopback');
    expect(refusedMcpAddresses('evil.example.com', ['fe80::1'])).toContain('link-local');
  });

  test('plain http only to a host the operator lists; MCP_ALLOW_PRIVATE_HOSTS takes host or host:port', () => {
    expect(refusedMcpUrl(new URL('http://mcp.example.com/'), none)).toContain('http://');
    const allowed = parseAllowedHosts(' 127.0.0.1:8080 , mcp.internal ');
    expect(refusedMcpUrl(new URL('http://127.0.0.1:8080/mcp'), allowed)).toBeUndefined();
    expect(refusedMcpUrl(new URL('http://127.0.0.1:9090/mcp'), allowed)).toContain('http://');
    expect(refusedMcpUrl(new URL('https://127.0.0.1:9090/mcp'), allowed)).toContain('loopback');
    expect(refusedMcpUrl(new URL('https://mcp.internal/mcp'), allowed)).toBeUndefined();
    expect(refusedMcpUrl(new URL('ftp://mcp.internal/'), allowed)).toContain('not an MCP transport');
  });
});
