/**
 * An agent's MCP servers reach the running agent (issue 28), through the real stack and the
 * unchanged SDK: a real MCP server on loopback that needs a bearer token, an agent with that server
 * and an mcp_toolset, a vault holding a static_bearer credential for it, a session with that vault,
 * and a scripted Messages API. The runtime lists the server's tools for the model, calls the tool
 * the model asks for, records the call and the server's answer, and hands the answer to the model;
 * the token reaches the server and nothing else. Without the vault the turn ends with a clean
 * session error; a tool that never answers ends it too, never a hang.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { describeEachSdk, SDKS, type SdkUnderTest } from '../support/sdk';
import { eventually } from '../support/eventually';
import { expectOk } from '../support/expect';
import { createAgent, createDeployment, createEnvironment, createVault } from '../support/fixtures';
import { TestMcpServer } from '../support/mcp-server';
import { sessionLog, useRuntimeWorld } from '../support/runtime-world';
import { runtimeSettled } from '../support/runtime-settled';

const TOKEN = `mcp-token-${crypto.randomUUID()}`;
/** Longest one MCP call may take here: the `slow` tool never answers. */
const CALL_TIMEOUT_MS = 1500;

let current: SdkUnderTest = SDKS[0]!;
let mcp: TestMcpServer;

beforeAll(async () => {
  mcp = await TestMcpServer.start(TOKEN);
});
afterAll(async () => {
  await mcp?.stop();
});

const world = useRuntimeWorld({
  // The catalog and vaults take a loopback http:// URL, and the runtime may reach this one host.
  env: () => ({ ALLOW_PRIVATE_MCP_URLS: 'true' }),
  runtimeEnv: () => ({ MCP_ALLOW_PRIVATE_HOSTS: mcp.hostPort, MCP_CALL_TIMEOUT_MS: String(CALL_TIMEOUT_MS) }),
});
const sdk = () => world.sdk(current.Anthropic);
const logOf = (sessionId: string) => sessionLog(sdk(), sessionId);
const usage = { input_tokens: 10, output_tokens: 5 };

/**
 * A session of an agent with the test server as `orders` (`slow` disabled unless asked for), with
 * a vault for it or none; `firedWith`: a deployment's session instead, fired by hand, whose first
 * message is the given one.
 */
async function mcpSession(options: { policy?: 'always_allow' | 'always_ask'; withVault?: boolean; slowEnabled?: boolean; firedWith?: string } = {}) {
  const agent = await createAgent(world.api, {
    mcp_servers: [{ name: 'orders', type: 'url', url: mcp.url }],
    tools: [
      {
        type: 'mcp_toolset',
        mcp_server_name: 'orders',
        default_config: { permission_policy: { type: options.policy ?? 'always_allow' } },
        configs: [{ name: 'slow', enabled: options.slowEnabled ?? false }],
      },
    ],
  });
  const environment = await createEnvironment(world.api);
  const vaultIds: string[] = [];
  if (options.withVault !== false) {
    const vault = await createVault(world.api);
    expectOk(
      await world.api('POST', `/v1/vaults/${vault.id}/credentials`, {
        body: { display_name: 'orders', auth: { type: 'static_bearer', token: TOKEN, mcp_server_url: mcp.url } },
      }),
    );
    vaultIds.push(vault.id);
  }
  if (options.firedWith) {
    const deployment = await createDeployment(world.api, {
      name: 'mcp deployment',
      agent: agent.id,
      environment_id: environment.id,
      vault_ids: vaultIds,
      initial_events: [{ type: 'user.message', content: [{ type: 'text', text: options.firedWith }] }],
    });
    const run = expectOk(await world.api('POST', `/v1/deployments/${deployment.id}/run`)) as { session_id: string };
    return { id: run.session_id };
  }
  return sdk().beta.sessions.create({ agent: agent.id, environment_id: environment.id, vault_ids: vaultIds });
}

async function ask(sessionId: string, text: string) {
  await sdk().beta.sessions.events.send(sessionId, { events: [{ type: 'user.message', content: [{ type: 'text', text }] }] });
}

/** Waits for the session's last event to be an idle whose stop reason is `reason`. */
const idleWith = (sessionId: string, reason: string) =>
  eventually(
    `the session to rest with ${reason}`,
    async () => {
      const last = (await logOf(sessionId)).at(-1);
      return last?.type === 'session.status_idle' && last.stop_reason?.type === reason ? true : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 50 },
  );

const callLookup = { content: [{ type: 'tool_use', id: 'toolu_mcp', name: 'lookup_order', input: { order_id: 'A-17' } }], stop_reason: 'tool_use' as const, usage };
const done = { content: [{ type: 'text', text: 'Order A-17 has shipped.' }], stop_reason: 'end_turn' as const, usage };

describeEachSdk('an agent\'s MCP server, called by the runtime', (under) => {
  beforeAll(() => {
    current = under;
  });

  test('the model calls the MCP tool; the log has the call and the server\'s answer; the next request carries it; the token goes nowhere else', async () => {
    const before = world.model.requests.length;
    const callsBefore = mcp.calls.length;
    world.model.reply(callLookup, done);
    const session = await mcpSession();
    await ask(session.id, 'Where is order A-17?');
    await idleWith(session.id, 'end_turn');
    await runtimeSettled(world.stack);

    const log = await logOf(session.id);
    expect(log.map((e) => e.type)).toEqual([
      'user.message',
      'session.status_running',
      'span.model_request_start',
      'agent.mcp_tool_use',
      'span.model_request_end',
      'agent.mcp_tool_result',
      'span.model_request_start',
      'agent.message',
      'span.model_request_end',
      'session.status_idle',
    ]);
    const use = log[3]!;
    expect(use).toMatchObject({ name: 'lookup_order', mcp_server_name: 'orders', input: { order_id: 'A-17' }, evaluated_permission: 'allow' });
    expect(log[5]).toMatchObject({ mcp_tool_use_id: use.id, content: [{ type: 'text', text: 'order A-17: shipped' }], is_error: false });
    expect(mcp.calls.slice(callsBefore)).toEqual([{ tool: 'lookup_order', arguments: { order_id: 'A-17' } }]);

    const [first, second] = world.model.requests.slice(before);
    // The toolset's configs: `slow` is disabled, so the model is offered only lookup_order.
    expect(first!.tools?.map((t) => (t as { name: string }).name)).toEqual(['lookup_order']);
    // The conversation's end is the request's prompt-cache breakpoint (domain/prompt-cache.ts).
    expect(second!.messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: use.id, content: [{ type: 'text', text: 'order A-17: shipped' }], is_error: false, cache_control: { type: 'ephemeral' } }],
    });
    // The token reached the server, and nothing else: no event, no model request.
    expect(mcp.authorizations.at(-1)).toBe(`Bearer ${TOKEN}`);
    expect(JSON.stringify(log)).not.toContain(TOKEN);
    expect(JSON.stringify(world.model.requests)).not.toContain(TOKEN);
  }, 60_000);

  test("a deployment's fired session calls the MCP tool with its vault the same way", async () => {
    const callsBefore = mcp.calls.length;
    world.model.reply(callLookup, done);
    const session = await mcpSession({ firedWith: 'Where is order A-17?' });
    await idleWith(session.id, 'end_turn');
    const log = await logOf(session.id);
    expect(log.find((e) => e.type === 'agent.mcp_tool_result')).toMatchObject({ content: [{ type: 'text', text: 'order A-17: shipped' }], is_error: false });
    expect(mcp.calls.slice(callsBefore)).toEqual([{ tool: 'lookup_order', arguments: { order_id: 'A-17' } }]);
    expect(JSON.stringify(log)).not.toContain(TOKEN);
  }, 60_000);

  test('always_ask: the call waits for user.tool_confirmation, then the runtime makes it', async () => {
    const callsBefore = mcp.calls.length;
    world.model.reply(callLookup, done);
    const session = await mcpSession({ policy: 'always_ask' });
    await ask(session.id, 'Where is order A-17?');
    await idleWith(session.id, 'requires_action');
    await runtimeSettled(world.stack);
    const waiting = await logOf(session.id);
    const use = waiting.find((e) => e.type === 'agent.mcp_tool_use')!;
    expect(use.evaluated_permission).toBe('ask');
    expect(waiting.at(-1)!.stop_reason).toEqual({ type: 'requires_action', event_ids: [use.id] });
    expect(mcp.calls.length).toBe(callsBefore);

    await sdk().beta.sessions.events.send(session.id, { events: [{ type: 'user.tool_confirmation', tool_use_id: use.id, result: 'allow' }] });
    await idleWith(session.id, 'end_turn');
    const log = await logOf(session.id);
    expect(log.find((e) => e.type === 'agent.mcp_tool_result')).toMatchObject({ mcp_tool_use_id: use.id, content: [{ text: 'order A-17: shipped' }] });
    expect(mcp.calls.length).toBe(callsBefore + 1);
  }, 60_000);

  describe('failures end the turn with the SDK\'s error kinds, never a hang', () => {
    test('without the vault the server refuses the runtime: mcp_authentication_failed_error, and the session rests', async () => {
      const before = world.model.requests.length;
      const session = await mcpSession({ withVault: false });
      await ask(session.id, 'Where is order A-17?');
      await idleWith(session.id, 'retries_exhausted');
      await runtimeSettled(world.stack);
      const log = await logOf(session.id);
      const error = log.find((e) => e.type === 'session.error')!;
      expect(error.error).toMatchObject({ type: 'mcp_authentication_failed_error', mcp_server_name: 'orders', retry_status: { type: 'exhausted' } });
      expect(error.error.message).toContain('orders');
      // The model is not asked with a toolset missing.
      expect(world.model.requests.length).toBe(before);
      expect((await sdk().beta.sessions.retrieve(session.id)).status).toBe('idle');
      expect(JSON.stringify(log)).not.toContain(TOKEN);
    }, 60_000);

    test('a server on a loopback address the operator did not allow is never connected to: mcp_connection_failed_error', async () => {
      const before = world.model.requests.length;
      const agent = await createAgent(world.api, {
        mcp_servers: [{ name: 'internal', type: 'url', url: 'https://127.0.0.1:9/mcp' }],
        tools: [{ type: 'mcp_toolset', mcp_server_name: 'internal' }],
      });
      const environment = await createEnvironment(world.api);
      const session = await sdk().beta.sessions.create({ agent: agent.id, environment_id: environment.id });
      await ask(session.id, 'Anything internal?');
      await idleWith(session.id, 'retries_exhausted');
      const error = (await logOf(session.id)).find((e) => e.type === 'session.error')!;
      expect(error.error).toMatchObject({ type: 'mcp_connection_failed_error', mcp_server_name: 'internal' });
      expect(error.error.message).toContain('loopback');
      expect(world.model.requests.length).toBe(before);
    }, 60_000);

    test('a call the server never answers: the call is answered as failed, mcp_connection_failed_error, and the session rests', async () => {
      world.model.reply({ content: [{ type: 'tool_use', id: 'toolu_slow', name: 'slow', input: {} }], stop_reason: 'tool_use', usage });
      const session = await mcpSession({ slowEnabled: true });
      await ask(session.id, 'Wait for it');
      await idleWith(session.id, 'retries_exhausted');
      const log = await logOf(session.id);
      const use = log.find((e) => e.type === 'agent.mcp_tool_use')!;
      expect(log.slice(-3).map((e) => e.type)).toEqual(['agent.mcp_tool_result', 'session.error', 'session.status_idle']);
      expect(log.at(-3)).toMatchObject({ mcp_tool_use_id: use.id, is_error: true });
      expect(log.at(-2)!.error).toMatchObject({ type: 'mcp_connection_failed_error', mcp_server_name: 'orders' });
      expect(log.at(-2)!.error.message).toContain(`${CALL_TIMEOUT_MS} ms`);
    }, 60_000);
  });
});
