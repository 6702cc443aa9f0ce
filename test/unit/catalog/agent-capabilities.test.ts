import { describe, expect, test } from 'bun:test';
import type { AgentToolParams } from '@shared/schema/agent-tools';
import type { Multiagent } from '@shared/schema/agent-multiagent';
import { AgentCreateBody } from '@shared/schema/agent';
import { validate } from '@shared/validation/validate';
import { mergeMultiagent, resolveMultiagent, type RosterLookup } from '../../../services/catalog/src/domain/agent-multiagent';
import { resolveMcpServers, resolveTools } from '@shared/agents/agent-tools';
import { resolvedToolConfig } from '../../support/resolved-tools';

const servers = resolveMcpServers([{ type: 'url', name: 'docs', url: 'https://mcp.example.com/' }], { allowPrivate: false });
const tools: AgentToolParams[] = [
  {
    type: 'agent_toolset_20260401',
    default_config: { enabled: false },
    configs: [
      { name: 'grep', enabled: true },
      { name: 'web_fetch', url_sources: { user_input: 'all', client_tool_results: { type: 'only', tools: [{ type: 'tool_reference', name: 'search' }] } } },
    ],
  },
  { type: 'mcp_toolset', mcp_server_name: 'docs', default_config: null },
  { type: 'custom', name: 'search', description: 'Searches.', input_schema: { type: 'object' } },
];

describe('tools', () => {
  test('the resolved form is itself valid params and resolves to itself, so an update that resends it changes nothing', () => {
    const resolved = resolveTools(tools, servers);
    expect(resolved[0]).toEqual({
      type: 'agent_toolset_20260401',
      default_config: { enabled: false, permission_policy: { type: 'always_allow' } },
      configs: [
        resolvedToolConfig('grep', true, 'always_allow'),
        resolvedToolConfig('web_fetch', false, 'always_allow', {
          url_sources: { client_tool_results: { type: 'only', tools: [{ type: 'tool_reference', name: 'search' }] }, server_tool_results: null, user_input: { type: 'all' } },
        }),
      ],
    });
    expect(resolveTools(resolved as AgentToolParams[], servers)).toEqual(resolved);
    expect(() => validate(AgentCreateBody.properties.tools, resolved, 'tools')).not.toThrow();
  });

  test('a toolset must name a declared server, and every server must be used', () => {
    expect(() => resolveTools([tools[1]!], [])).toThrow('tools.0.mcp_server_name: no MCP server named "docs" in mcp_servers');
    expect(() => resolveTools([], servers)).toThrow('mcp_servers.0: server "docs" is not used by any mcp_toolset in tools');
    expect(() => resolveTools([tools[1]!, tools[1]!], servers)).toThrow('tools.1.mcp_server_name: mcp_toolset for server "docs" appears more than once');
  });

  test('a per-tool config names its tool by `name`; a wrong field inside is reported there', () => {
    expect(() => validate(AgentCreateBody.properties.tools, [{ type: 'agent_toolset_20260401', configs: [{ name: 'web_search', max_content_tokens: 5 }] }], 'tools')).toThrow(
      'tools.0.configs.0.max_content_tokens: unknown property',
    );
    expect(() => validate(AgentCreateBody.properties.tools, [{ type: 'agent_toolset_20260401', configs: [{ name: 'bash', type: 'edit' }] }], 'tools')).toThrow(
      'tools.0.configs.0.name: must be "edit"',
    );
  });
});

describe('multiagent', () => {
  const self = { id: 'agent_self', version: 4 };
  const lookup: RosterLookup = (id, version) => (id === 'agent_b' ? { id, version: version ?? 7, archived: false, hasMultiagent: false } : undefined);
  const models = { find: (id: string) => (id.startsWith('claude-') ? {} : undefined) };
  const stored: Multiagent = {
    type: 'multiagent_20261001',
    advisor: { type: 'enabled', model: 'claude-x' },
    subagents: { type: 'enabled', inline_agents: { type: 'enabled' }, predefined_agents: [{ type: 'agent', id: 'agent_b', version: 2 }] },
    workflows: { type: 'disabled' },
  };

  test('an update merges into a stored multiagent_20261001 level by level', () => {
    expect(mergeMultiagent(stored, undefined)).toEqual(stored);
    expect(mergeMultiagent(stored, null)).toBeNull();
    // Omitted keys keep their stored values; null takes the default; another type replaces.
    expect(mergeMultiagent(stored, { type: 'multiagent_20261001', workflows: null, subagents: { type: 'enabled', inline_agents: { type: 'disabled' } } })).toEqual({
      type: 'multiagent_20261001',
      advisor: stored.advisor,
      subagents: { type: 'enabled', inline_agents: { type: 'disabled' }, predefined_agents: [{ type: 'agent', id: 'agent_b', version: 2 }] },
      workflows: null,
    });
    // A coordinator replaces the whole configuration.
    expect(mergeMultiagent(stored, { type: 'coordinator', agents: ['agent_b'] })).toEqual({ type: 'coordinator', agents: ['agent_b'] });
  });

  test('resolution pins every agent named and fills the defaults', () => {
    expect(resolveMultiagent({ type: 'multiagent_20261001', subagents: { type: 'enabled', predefined_agents: ['agent_b', { type: 'self' }] } }, self, lookup, models)).toEqual({
      type: 'multiagent_20261001',
      advisor: { type: 'disabled' },
      subagents: {
        type: 'enabled',
        inline_agents: { type: 'enabled' },
        predefined_agents: [
          { type: 'agent', id: 'agent_b', version: 7 },
          { type: 'agent', id: 'agent_self', version: 4 },
        ],
      },
      workflows: { type: 'enabled', inline_agents: { type: 'enabled' }, predefined_agents: [] },
    });
    expect(() => resolveMultiagent({ type: 'coordinator', agents: ['agent_c'] }, self, lookup, models)).toThrow("multiagent.agents.0: agent 'agent_c' not found");
  });
});
