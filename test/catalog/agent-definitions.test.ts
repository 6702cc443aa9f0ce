/**
 * Agents as users define them: tools (the built-in toolset with per-tool configurations, MCP
 * toolsets, custom tools), URL MCP servers, skills and multiagent configurations, stored,
 * versioned and returned in the SDK's response shapes; and `GET /v1/agents/{id}/versions`.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { apiClient, type ApiClient } from '../support/api';
import { expectError, expectOk } from '../support/expect';
import { createAgent, createSkill, MODELS, useTwoTenantStack } from '../support/fixtures';
import { allPages } from '../support/pages';
import { resolvedToolConfig } from '../support/resolved-tools';

const t = useTwoTenantStack({ services: ['catalog'] });
/** A read-only key of `t.api`'s tenant. */
let readOnly: ApiClient;
let releaseSkill: { type: 'custom'; skill_id: string; version: string };

beforeAll(async () => {
  const { organization_id: org, workspace_id: workspace } = t.mine.tenant;
  readOnly = apiClient(t.stack.url, (await t.stack.createKey({ org, workspace, scope: 'read_only' })).secret);
  const skill = await createSkill(t.api);
  releaseSkill = { type: 'custom', skill_id: skill.id, version: skill.latest_version_id };
});

const updateAgent = async (id: string, body: Record<string, unknown>) => expectOk(await t.api('POST', `/v1/agents/${id}`, { body }));

/** A release agent as a team would write it: every kind of tool, an MCP server, two skills. */
const releaseAgent = {
  name: 'release captain',
  model: { id: MODELS.priced, effort: 'high' },
  system: 'You cut and ship releases.',
  tools: [
    {
      type: 'agent_toolset_20260401',
      default_config: { permission_policy: { type: 'always_ask' } },
      configs: [
        { name: 'bash', permission_policy: { type: 'always_allow' } },
        {
          name: 'web_fetch',
          allowed_domains: ['docs.example.com'],
          max_content_tokens: 20000,
          url_sources: { user_input: 'none', server_tool_results: { type: 'only', tools: [{ type: 'tool_reference', name: 'web_search' }] } },
        },
        { name: 'web_search', type: 'web_search', enabled: false, user_location: { type: 'approximate', country: 'DE', city: 'Berlin' } },
      ],
    },
    {
      type: 'mcp_toolset',
      mcp_server_name: 'github',
      default_config: { permission_policy: { type: 'always_allow' } },
      configs: [{ name: 'create_pull_request', permission_policy: { type: 'always_ask' } }, { name: 'delete_repository', enabled: false }],
    },
    {
      type: 'custom',
      name: 'lookup_ticket',
      description: 'Looks a ticket up by its id.',
      input_schema: { type: 'object', properties: { id: { type: 'string', pattern: '^T-[0-9]+$' } }, required: ['id'], additionalProperties: false },
    },
  ],
  mcp_servers: [{ type: 'url', name: 'github', url: 'https://api.githubcopilot.com/mcp/' }],
  /** The custom one is a skill of the tenant's own, pinned to its version (agents' skills must exist). */
  get skills() {
    return [{ type: 'anthropic', skill_id: 'xlsx' }, releaseSkill];
  },
};

/** What the agent above is returned as: every default filled in, shorthands as objects. */
const releaseAgentTools = [
  {
    type: 'agent_toolset_20260401',
    default_config: { enabled: true, permission_policy: { type: 'always_ask' } },
    configs: [
      resolvedToolConfig('bash', true, 'always_allow'),
      resolvedToolConfig('web_fetch', true, 'always_ask', {
        allowed_domains: ['docs.example.com'],
        max_content_tokens: 20000,
        url_sources: {
          client_tool_results: null,
          server_tool_results: { type: 'only', tools: [{ type: 'tool_reference', name: 'web_search' }] },
          user_input: { type: 'none' },
        },
      }),
      resolvedToolConfig('web_search', false, 'always_ask', { user_location: { type: 'approximate', country: 'DE', city: 'Berlin' } }),
    ],
  },
  {
    type: 'mcp_toolset',
    mcp_server_name: 'github',
    default_config: { enabled: true, permission_policy: { type: 'always_allow' } },
    configs: [
      { name: 'create_pull_request', enabled: true, permission_policy: { type: 'always_ask' } },
      { name: 'delete_repository', enabled: false, permission_policy: { type: 'always_allow' } },
    ],
  },
  releaseAgent.tools[2],
];

describe('tools, MCP servers and skills', () => {
  test('a realistic definition round-trips with its defaults resolved', async () => {
    const agent = await createAgent(t.api, releaseAgent);
    expect(agent).toMatchObject({ version: 1, name: 'release captain', model: { id: MODELS.priced, effort: { type: 'high' } } });
    expect(agent.tools).toEqual(releaseAgentTools);
    expect(agent.mcp_servers).toEqual([{ type: 'url', name: 'github', url: 'https://api.githubcopilot.com/mcp/' }]);
    expect(agent.skills).toEqual([{ type: 'anthropic', skill_id: 'xlsx', version: 'latest' }, releaseSkill]);
    expect(agent.multiagent).toBeNull();
    expect(expectOk(await t.api('GET', `/v1/agents/${agent.id}`))).toEqual(agent);
  });

  test('defaults: the built-in toolset always allows, an MCP toolset always asks', async () => {
    const agent = await createAgent(t.api, {
      tools: [{ type: 'agent_toolset_20260401' }, { type: 'mcp_toolset', mcp_server_name: 'docs' }],
      mcp_servers: [{ type: 'url', name: 'docs', url: 'https://mcp.example.com/sse' }],
    });
    expect(agent.tools).toEqual([
      { type: 'agent_toolset_20260401', configs: [], default_config: { enabled: true, permission_policy: { type: 'always_allow' } } },
      { type: 'mcp_toolset', mcp_server_name: 'docs', configs: [], default_config: { enabled: true, permission_policy: { type: 'always_ask' } } },
    ]);
  });

  test('tools, servers and skills are versioned: replaced whole, cleared with null or [], unchanged adds no version', async () => {
    const v1 = await createAgent(t.api, releaseAgent);
    const same = await updateAgent(v1.id, { tools: releaseAgent.tools, mcp_servers: releaseAgent.mcp_servers, skills: releaseAgent.skills });
    expect(same.version).toBe(1);
    // Sending the resolved form back is no change either.
    expect((await updateAgent(v1.id, { tools: v1.tools, skills: v1.skills })).version).toBe(1);

    const v2 = await updateAgent(v1.id, { skills: [{ type: 'anthropic', skill_id: 'pdf' }] });
    expect(v2).toMatchObject({ version: 2, skills: [{ type: 'anthropic', skill_id: 'pdf', version: 'latest' }] });
    expect(v2.tools).toEqual(releaseAgentTools);

    // Servers and toolsets are checked together on the result: dropping only the server is refused.
    expectError(await t.api('POST', `/v1/agents/${v1.id}`, { body: { mcp_servers: [] } }), 400, 'invalid_request_error', 'tools.1.mcp_server_name: no MCP server named "github"');
    const v3 = await updateAgent(v1.id, { tools: null, mcp_servers: [], skills: null });
    expect(v3).toMatchObject({ version: 3, tools: [], mcp_servers: [], skills: [] });

    const old = expectOk(await t.api('GET', `/v1/agents/${v1.id}`, { query: { version: '1' } }));
    expect(old.tools).toEqual(releaseAgentTools);
    expect(old.skills).toEqual(v1.skills);
  });

  test('validation names the field and the limit', async () => {
    const servers = [{ type: 'url', name: 'github', url: 'https://mcp.example.com' }];
    const toolset = (configs: unknown[]) => [{ type: 'agent_toolset_20260401', configs }];
    const custom = (over: Record<string, unknown> = {}) => ({
      type: 'custom',
      name: 'lookup',
      description: 'Looks things up.',
      input_schema: { type: 'object', properties: { q: { type: 'string' } } },
      ...over,
    });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ tools: [{ type: 'custom', name: 'lookup', description: 'x' }] }, 'tools.0.input_schema: is required'],
      [{ tools: [{ type: 'browser' }] }, 'tools.0: must be an object whose type is "agent_toolset_20260401", "mcp_toolset" or "custom"'],
      [{ tools: [custom({ colour: 'red' })] }, 'tools.0.colour: unknown property'],
      [{ tools: [custom({ name: 'has space' })] }, 'tools.0.name: must be 1 to 128 letters, digits, underscores or hyphens'],
      [{ tools: [custom({ input_schema: { type: 'array' } })] }, 'tools.0.input_schema.type: must be "object"'],
      [{ tools: [custom({ input_schema: { type: 'object', properties: {}, required: ['q'] } })] }, 'tools.0.input_schema.required.0: "q" is not in input_schema.properties'],
      [{ tools: [custom(), custom()] }, 'tools.1.name: custom tool name "lookup" appears more than once'],
      [{ tools: Array.from({ length: 257 }, (_, i) => custom({ name: `t${i}` })) }, 'tools: must contain at most 256 items'],
      [
        { tools: Array.from({ length: 20 }, (_, i) => custom({ name: `t${i}`, input_schema: { type: 'object', description: 'x'.repeat(60_000) } })) },
        'tools: must be at most 1048576 bytes as JSON',
      ],
      [{ tools: [custom({ input_schema: { type: 'object', description: 'x'.repeat(70_000) } })] }, 'tools.0.input_schema: must be at most 65536 bytes as JSON'],
      [{ tools: toolset([{ name: 'bash2' }]) }, 'tools.0.configs.0: must be an object whose name is one of "bash"'],
      [{ tools: toolset([{ name: 'bash', permission_policy: { type: 'sometimes' } }]) }, 'tools.0.configs.0.permission_policy: must be {"type": "always_allow"}'],
      [{ tools: toolset([{ name: 'bash', enabled: 'yes' }]) }, 'tools.0.configs.0.enabled: must be a boolean or null'],
      [{ tools: toolset([{ name: 'read' }, { name: 'read' }]) }, 'tools.0.configs.1.name: tool configuration "read" appears more than once'],
      [{ tools: toolset([{ name: 'web_fetch', allowed_domains: ['a.com'], blocked_domains: ['b.com'] }]) }, 'tools.0.configs.0: allowed_domains and blocked_domains cannot be combined'],
      [{ tools: toolset([{ name: 'web_fetch', allowed_domains: ['https://a.com'] }]) }, 'tools.0.configs.0.allowed_domains.0: must be a plain hostname'],
      [{ tools: toolset([{ name: 'web_fetch', allowed_domains: [] }]) }, 'tools.0.configs.0.allowed_domains: must contain at least 1 item'],
      [{ tools: toolset([{ name: 'web_fetch', url_sources: { client_tool_results: { type: 'only', tools: [{ type: 'tool_reference', name: 'nope' }] } } }]) }, 'tools.0.configs.0.url_sources.client_tool_results.tools.0.name: "nope" is not a custom tool of this agent'],
      [{ tools: toolset([{ name: 'web_fetch', url_sources: { client_tool_results: 'none', server_tool_results: 'none', user_input: 'none' } }]) }, 'tools.0.configs.0.url_sources: all three sources cannot be "none"'],
      [{ tools: [...toolset([]), ...toolset([])] }, 'tools.1: only one agent_toolset_20260401 is allowed'],
      [{ tools: [{ type: 'mcp_toolset', mcp_server_name: 'gitlab' }], mcp_servers: servers }, 'tools.0.mcp_server_name: no MCP server named "gitlab" in mcp_servers'],
      [{ mcp_servers: servers }, 'mcp_servers.0: server "github" is not used by any mcp_toolset in tools'],
      [{ tools: [{ type: 'mcp_toolset', mcp_server_name: 'github' }], mcp_servers: [...servers, ...servers] }, 'mcp_servers.1.name: MCP server name "github" appears more than once'],
      [{ mcp_servers: Array.from({ length: 21 }, (_, i) => ({ type: 'url', name: `s${i}`, url: 'https://mcp.example.com' })) }, 'mcp_servers: must contain at most 20 items'],
      [{ mcp_servers: [{ type: 'url', name: 'x', url: 'http://mcp.example.com' }] }, 'mcp_servers.0.url: must be an absolute https:// URL'],
      [{ mcp_servers: [{ type: 'sse', name: 'x', url: 'https://mcp.example.com' }] }, 'mcp_servers.0.type: must be "url"'],
      [{ mcp_servers: [{ type: 'url', name: '', url: 'https://mcp.example.com' }] }, 'mcp_servers.0.name: must be at least 1 character'],
      [{ skills: [{ type: 'plugin', skill_id: 'x' }] }, 'skills.0: must be an object whose type is "anthropic" or "custom"'],
      [{ skills: [{ type: 'custom', skill_id: 'xlsx' }] }, 'skills.0.skill_id: must be a custom skill id'],
      [{ skills: [{ type: 'anthropic', skill_id: 'pdf' }, { type: 'anthropic', skill_id: 'pdf' }] }, 'skills.1.skill_id: skill "anthropic:pdf" appears more than once'],
      [{ skills: Array.from({ length: 21 }, (_, i) => ({ type: 'anthropic', skill_id: `s${i}` })) }, 'skills: must contain at most 20 items'],
      [{ multiagent: { type: 'swarm' } }, 'multiagent: must be null or an object whose type is "coordinator" or "multiagent_20261001"'],
      [{ multiagent: { type: 'coordinator', agents: [] } }, 'multiagent.agents: must contain at least 1 item'],
      [{ multiagent: { type: 'multiagent_20261001', advisor: { type: 'enabled' } } }, 'multiagent.advisor.model: is required'],
      [{ multiagent: { type: 'multiagent_20261001', advisor: { type: 'enabled', model: 'gpt-0' } } }, 'multiagent.advisor.model: unknown model "gpt-0"'],
    ];
    for (const [body, message] of cases) {
      expectError(await t.api('POST', '/v1/agents', { body: { name: 'a', model: MODELS.priced, ...body } }), 400, 'invalid_request_error', message);
    }
  });

  test('credentials in an MCP server URL are refused and never echoed', async () => {
    const res = await t.api('POST', '/v1/agents', {
      body: {
        name: 'a',
        model: MODELS.priced,
        tools: [{ type: 'mcp_toolset', mcp_server_name: 'x' }],
        mcp_servers: [{ type: 'url', name: 'x', url: 'https://bot:hunter2-secret@mcp.example.com/' }],
      },
    });
    expectError(res, 400, 'invalid_request_error', 'mcp_servers.0.url: must not carry credentials');
    expect(JSON.stringify(res.body)).not.toContain('hunter2');
  });
});

describe('multiagent', () => {
  test('a coordinator roster is pinned to versions; self names the version that holds it', async () => {
    const researcher = await createAgent(t.api, { name: 'researcher' });
    const writer = await createAgent(t.api, { name: 'writer' });
    await updateAgent(writer.id, { system: 'v2' });
    const lead = await createAgent(t.api, {
      name: 'lead',
      multiagent: {
        type: 'coordinator',
        agents: [researcher.id, { type: 'agent', id: writer.id, version: 1 }, { type: 'self' }, { type: 'advisor', model: MODELS.noSystemMessages }],
      },
    });
    expect(lead.multiagent).toEqual({
      type: 'coordinator',
      agents: [
        { type: 'agent', id: researcher.id, version: 1 },
        { type: 'agent', id: writer.id, version: 1 },
        { type: 'agent', id: lead.id, version: 1 },
        { type: 'advisor', model: MODELS.noSystemMessages },
      ],
    });
    // Another change: the new version's roster names itself at that version.
    const v2 = await updateAgent(lead.id, { description: 'leads' });
    expect(v2.version).toBe(2);
    expect(v2.multiagent.agents[2]).toEqual({ type: 'agent', id: lead.id, version: 2 });
    // Sending the same configuration again changes nothing: no version.
    const again = await updateAgent(lead.id, {
      multiagent: { type: 'coordinator', agents: [researcher.id, { type: 'agent', id: writer.id, version: 1 }, { type: 'self' }, { type: 'advisor', model: MODELS.noSystemMessages }] },
    });
    expect(again.version).toBe(2);
    // A string names the latest version at the time of the save.
    const v3 = await updateAgent(lead.id, { multiagent: { type: 'coordinator', agents: [writer.id] } });
    expect(v3.multiagent).toEqual({ type: 'coordinator', agents: [{ type: 'agent', id: writer.id, version: 2 }] });
    const cleared = await updateAgent(lead.id, { multiagent: null });
    expect(cleared).toMatchObject({ version: 4, multiagent: null });
    expect(expectOk(await t.api('GET', `/v1/agents/${lead.id}`, { query: { version: '1' } })).multiagent).toEqual(lead.multiagent);
  });

  test('named agents must exist in the tenant, be active, distinct and single-level', async () => {
    const worker = await createAgent(t.api, { name: 'worker' });
    const lead = await createAgent(t.api, { name: 'lead', multiagent: { type: 'coordinator', agents: [worker.id] } });
    const archived = await createAgent(t.api, { name: 'gone' });
    expectOk(await t.api('POST', `/v1/agents/${archived.id}/archive`));
    const theirs = await createAgent(t.other, { name: 'theirs' });
    const roster = (agents: unknown[]) => ({ name: 'x', model: MODELS.priced, multiagent: { type: 'coordinator', agents } });

    expectError(await t.api('POST', '/v1/agents', { body: roster([theirs.id]) }), 404, 'not_found_error', `multiagent.agents.0: agent '${theirs.id}' not found`);
    expectError(await t.api('POST', '/v1/agents', { body: roster(['agent_nope']) }), 404, 'not_found_error', "multiagent.agents.0: agent 'agent_nope' not found");
    expectError(await t.api('POST', '/v1/agents', { body: roster([{ type: 'agent', id: worker.id, version: 9 }]) }), 404, 'not_found_error', `multiagent.agents.0: agent '${worker.id}' version 9 not found`);
    expectError(await t.api('POST', '/v1/agents', { body: roster([archived.id]) }), 400, 'invalid_request_error', 'multiagent.agents.0: agent', 'is archived');
    expectError(await t.api('POST', '/v1/agents', { body: roster([lead.id]) }), 400, 'invalid_request_error', 'multiagent.agents.0:', 'has a multiagent configuration itself');
    expectError(await t.api('POST', '/v1/agents', { body: roster([worker.id, { type: 'agent', id: worker.id }]) }), 400, 'invalid_request_error', `multiagent.agents.1: agent ${worker.id} is named more than once`);
    expectError(await t.api('POST', '/v1/agents', { body: roster([{ type: 'self' }, { type: 'self' }]) }), 400, 'invalid_request_error', 'multiagent.agents.1:', 'more than once');
    expectError(
      await t.api('POST', '/v1/agents', { body: roster([{ type: 'advisor', model: MODELS.priced }, { type: 'advisor', model: MODELS.priced }]) }),
      400,
      'invalid_request_error',
      'multiagent.agents.1: a roster may name at most one advisor',
    );
    expectError(await t.api('POST', '/v1/agents', { body: roster(Array.from({ length: 21 }, () => worker.id)) }), 400, 'invalid_request_error', 'multiagent.agents: must contain at most 20 items');
  });

  test('multiagent_20261001: defaults filled in; an update merges level by level', async () => {
    const helper = await createAgent(t.api, { name: 'helper' });
    const v1 = await createAgent(t.api, {
      name: 'orchestrator',
      multiagent: { type: 'multiagent_20261001', advisor: { type: 'enabled', model: MODELS.noSystemMessages }, subagents: { type: 'enabled', predefined_agents: [helper.id] } },
    });
    expect(v1.multiagent).toEqual({
      type: 'multiagent_20261001',
      advisor: { type: 'enabled', model: MODELS.noSystemMessages },
      subagents: { type: 'enabled', inline_agents: { type: 'enabled' }, predefined_agents: [{ type: 'agent', id: helper.id, version: 1 }] },
      workflows: { type: 'enabled', inline_agents: { type: 'enabled' }, predefined_agents: [] },
    });
    const v2 = await updateAgent(v1.id, { multiagent: { type: 'multiagent_20261001', workflows: { type: 'disabled' } } });
    expect(v2.multiagent).toEqual({ ...v1.multiagent, workflows: { type: 'disabled' } });
    const v3 = await updateAgent(v1.id, { multiagent: { type: 'multiagent_20261001', subagents: { type: 'enabled', inline_agents: { type: 'disabled' } } } });
    expect(v3.multiagent.subagents).toEqual({ type: 'enabled', inline_agents: { type: 'disabled' }, predefined_agents: [{ type: 'agent', id: helper.id, version: 1 }] });
    expect(v3.multiagent.advisor).toEqual({ type: 'enabled', model: MODELS.noSystemMessages });
    expectError(
      await t.api('POST', `/v1/agents/${v1.id}`, { body: { multiagent: { type: 'multiagent_20261001', subagents: { type: 'enabled', predefined_agents: null } } } }),
      400,
      'invalid_request_error',
      'multiagent.subagents.predefined_agents: must name at least one agent when inline_agents is disabled',
    );
    // Null takes the default: the advisor is disabled again.
    const v4 = await updateAgent(v1.id, { multiagent: { type: 'multiagent_20261001', advisor: null } });
    expect(v4).toMatchObject({ version: 4, multiagent: { advisor: { type: 'disabled' }, workflows: { type: 'disabled' } } });
    // Another type replaces the whole configuration.
    const v5 = await updateAgent(v1.id, { multiagent: { type: 'coordinator', agents: [{ type: 'self' }] } });
    expect(v5.multiagent).toEqual({ type: 'coordinator', agents: [{ type: 'agent', id: v1.id, version: 5 }] });
  });
});

describe('GET /v1/agents/{id}/versions', () => {
  test('lists every version newest first, paged, each as retrieve shows it', async () => {
    const agent = await createAgent(t.api, { name: 'v1' });
    for (let v = 2; v <= 5; v++) await updateAgent(agent.id, { name: `v${v}` });
    const pages = await allPages(t.api, `/v1/agents/${agent.id}/versions`, { limit: '2' });
    expect(pages.map((p) => p.map((a) => a.version))).toEqual([[5, 4], [3, 2], [1]]);
    for (const version of pages.flat()) {
      expect(expectOk(await t.api('GET', `/v1/agents/${agent.id}`, { query: { version: String(version.version) } }))).toEqual(version);
      expect(version.name).toBe(`v${version.version}`);
    }
    expect(expectOk(await t.api('GET', `/v1/agents/${agent.id}/versions`)).data).toHaveLength(5);
    // Reading versions is a read: a read-only key may; it may not add one.
    expect(expectOk(await readOnly('GET', `/v1/agents/${agent.id}/versions`)).data).toHaveLength(5);
    expectError(await readOnly('POST', `/v1/agents/${agent.id}`, { body: { name: 'v6' } }), 403, 'permission_error');
  });

  test('tenant isolation, cursor binding and limits', async () => {
    const a = await createAgent(t.api);
    const b = await createAgent(t.api);
    await updateAgent(a.id, { name: 'again' });
    await updateAgent(b.id, { name: 'again' });
    expectError(await t.other('GET', `/v1/agents/${a.id}/versions`), 404, 'not_found_error');
    expectError(await t.api('GET', '/v1/agents/agent_nope/versions'), 404, 'not_found_error');

    const first = expectOk(await t.api('GET', `/v1/agents/${a.id}/versions`, { query: { limit: '1' } }));
    expect(first.data.map((v: any) => v.version)).toEqual([2]);
    expect(first.next_page).toEqual(expect.any(String));
    expectError(await t.api('GET', `/v1/agents/${b.id}/versions`, { query: { limit: '1', page: first.next_page } }), 400, 'invalid_request_error', 'invalid page cursor');
    // The cursor is sealed for this tenant: refused before anything is looked up.
    expectError(await t.other('GET', `/v1/agents/${a.id}/versions`, { query: { limit: '1', page: first.next_page } }), 400, 'invalid_request_error', 'invalid page cursor');
    expectError(await t.api('GET', `/v1/agents/${a.id}/versions`, { query: { limit: '101' } }), 400, 'invalid_request_error', 'limit:');
    expectError(await t.api('GET', `/v1/agents/${a.id}/versions`, { query: { include_archived: 'true' } }), 400, 'invalid_request_error', 'include_archived: unknown query parameter');

    // An archived agent's versions stay listed.
    expectOk(await t.api('POST', `/v1/agents/${a.id}/archive`));
    expect(expectOk(await t.api('GET', `/v1/agents/${a.id}/versions`)).data.map((v: any) => v.version)).toEqual([2, 1]);
  });
});
