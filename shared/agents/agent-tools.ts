import { invalidRequest } from '@shared/errors/api-error';
import { checkMcpServerUrl, type McpUrlRules } from './mcp-server-url';
import {
  LATEST_SKILL_VERSION,
  type AgentTool,
  type AgentToolConfig,
  type AgentToolConfigParams,
  type AgentToolParams,
  type McpServer,
  type McpServerParams,
  type PermissionPolicy,
  type AgentSkill,
  type SkillParams,
  type ToolsetDefaultConfig,
  type ToolsetDefaultConfigParams,
  type UrlSources,
  type UrlSourcesParams,
  type UrlSourceToolFilter,
} from '@shared/schema/agent-tools';

/**
 * The rules of an agent's tools, MCP servers and skills that span fields (the schemas in
 * shared/schema/agent-tools.ts hold each field's own), and their resolution into the response
 * form: defaults filled in, shorthands in their object form. Pure: checked on the definition a
 * version will hold (after an update is applied), so every stored version obeys them. Shared
 * because two services resolve tools: the catalog for an agent's versions, the deployments service
 * for a session whose agent's tools and MCP servers an update replaces.
 */

/** The built-in toolset runs tools without asking by default; MCP tools ask (new tools on a server are not trusted blindly). */
const AGENT_TOOLSET_DEFAULT_POLICY: PermissionPolicy = { type: 'always_allow' };
const MCP_TOOLSET_DEFAULT_POLICY: PermissionPolicy = { type: 'always_ask' };

function resolveDefaultConfig(params: ToolsetDefaultConfigParams | null | undefined, policy: PermissionPolicy): ToolsetDefaultConfig {
  return { enabled: params?.enabled ?? true, permission_policy: params?.permission_policy ?? policy };
}

const duplicate = (path: string, what: string, name: string) => invalidRequest(`${path}: ${what} ${JSON.stringify(name)} appears more than once`);

/** A value must not repeat: `names` as found at `paths`. */
function refuseDuplicates(entries: Array<{ name: string; path: string }>, what: string): void {
  const seen = new Set<string>();
  for (const { name, path } of entries) {
    if (seen.has(name)) throw duplicate(path, what, name);
    seen.add(name);
  }
}

/** `urls`: the service's MCP URL rules (mcp-server-url.ts); each URL is checked against them. */
export function resolveMcpServers(params: McpServerParams[], urls: McpUrlRules): McpServer[] {
  params.forEach((server, i) => checkMcpServerUrl(server.url, `mcp_servers.${i}.url`, urls));
  refuseDuplicates(params.map((s, i) => ({ name: s.name, path: `mcp_servers.${i}.name` })), 'MCP server name');
  return params.map((s) => ({ name: s.name, type: 'url', url: s.url }));
}

export function resolveSkills(params: SkillParams[]): AgentSkill[] {
  refuseDuplicates(params.map((s, i) => ({ name: `${s.type}:${s.skill_id}`, path: `skills.${i}.skill_id` })), 'skill');
  return params.map((s) => ({ skill_id: s.skill_id, type: s.type, version: s.version ?? LATEST_SKILL_VERSION }));
}

const toolFilter = (value: UrlSourceToolFilter | 'all' | 'none' | null | undefined): UrlSourceToolFilter | null =>
  value === undefined || value === null ? null : typeof value === 'string' ? { type: value } : value;

/** The names an only/except list holds must differ, and be tools of the kind the source is about. */
function checkToolFilter(filter: UrlSourceToolFilter | null, path: string, allowed: Set<string>, what: string): void {
  if (!filter || (filter.type !== 'only' && filter.type !== 'except')) return;
  refuseDuplicates(filter.tools.map((t, i) => ({ name: t.name, path: `${path}.tools.${i}.name` })), 'tool');
  filter.tools.forEach((t, i) => {
    if (!allowed.has(t.name)) throw invalidRequest(`${path}.tools.${i}.name: ${JSON.stringify(t.name)} is not ${what}`);
  });
}

function resolveUrlSources(params: UrlSourcesParams, path: string, customTools: Set<string>): UrlSources {
  const sources: UrlSources = {
    client_tool_results: toolFilter(params.client_tool_results),
    server_tool_results: toolFilter(params.server_tool_results),
    user_input: toolFilter(params.user_input) as UrlSources['user_input'],
  };
  checkToolFilter(sources.client_tool_results, `${path}.client_tool_results`, customTools, 'a custom tool of this agent');
  checkToolFilter(sources.server_tool_results, `${path}.server_tool_results`, new Set(['web_search', 'web_fetch']), '"web_search" or "web_fetch"');
  if ([sources.client_tool_results, sources.server_tool_results, sources.user_input].every((s) => s?.type === 'none')) {
    throw invalidRequest(`${path}: all three sources cannot be "none" (web_fetch could fetch nothing)`);
  }
  return sources;
}

function resolveToolConfig(
  config: AgentToolConfigParams,
  defaults: ToolsetDefaultConfig,
  path: string,
  customTools: Set<string>,
): AgentToolConfig {
  const base = {
    enabled: config.enabled ?? defaults.enabled,
    permission_policy: config.permission_policy ?? defaults.permission_policy,
  };
  if (config.name === 'web_fetch' || config.name === 'web_search') {
    if (config.allowed_domains && config.blocked_domains) {
      throw invalidRequest(`${path}: allowed_domains and blocked_domains cannot be combined`);
    }
  }
  switch (config.name) {
    case 'web_fetch':
      return {
        name: 'web_fetch',
        type: 'web_fetch',
        ...base,
        url_sources: config.url_sources ? resolveUrlSources(config.url_sources, `${path}.url_sources`, customTools) : null,
        ...(config.allowed_domains ? { allowed_domains: config.allowed_domains } : {}),
        ...(config.blocked_domains ? { blocked_domains: config.blocked_domains } : {}),
        ...(config.max_content_tokens !== undefined ? { max_content_tokens: config.max_content_tokens } : {}),
      };
    case 'web_search':
      return {
        name: 'web_search',
        type: 'web_search',
        ...base,
        ...(config.allowed_domains ? { allowed_domains: config.allowed_domains } : {}),
        ...(config.blocked_domains ? { blocked_domains: config.blocked_domains } : {}),
        ...(config.user_location !== undefined ? { user_location: config.user_location } : {}),
      };
    default:
      return { name: config.name, type: config.name, ...base } as AgentToolConfig;
  }
}

/** Each property a custom tool requires must be one it declares. */
function checkInputSchema(tool: Extract<AgentToolParams, { type: 'custom' }>, path: string): void {
  const required = tool.input_schema.required ?? [];
  refuseDuplicates(required.map((name, i) => ({ name, path: `${path}.input_schema.required.${i}` })), 'required property');
  const properties = tool.input_schema.properties ?? {};
  required.forEach((name, i) => {
    if (!Object.hasOwn(properties, name)) {
      throw invalidRequest(`${path}.input_schema.required.${i}: ${JSON.stringify(name)} is not in input_schema.properties`);
    }
  });
}

/**
 * Resolves `tools` against the MCP servers the same version declares: at most one built-in
 * toolset; one `mcp_toolset` per server, naming a declared one; every declared server used by a
 * toolset (the SDK refuses unreferenced servers); tool and per-tool configuration names unique.
 */
export function resolveTools(params: AgentToolParams[], servers: McpServer[]): AgentTool[] {
  const customTools = new Set(params.flatMap((t) => (t.type === 'custom' ? [t.name] : [])));
  const serverNames = new Set(servers.map((s) => s.name));
  const builtIn = params.findIndex((t) => t.type === 'agent_toolset_20260401');
  const again = params.findIndex((t, i) => i > builtIn && t.type === 'agent_toolset_20260401');
  if (builtIn !== -1 && again !== -1) throw invalidRequest(`tools.${again}: only one agent_toolset_20260401 is allowed`);
  refuseDuplicates(
    params.flatMap((t, i) => (t.type === 'mcp_toolset' ? [{ name: t.mcp_server_name, path: `tools.${i}.mcp_server_name` }] : [])),
    'mcp_toolset for server',
  );
  refuseDuplicates(
    params.flatMap((t, i) => (t.type === 'custom' ? [{ name: t.name, path: `tools.${i}.name` }] : [])),
    'custom tool name',
  );

  const tools = params.map((tool, i): AgentTool => {
    const path = `tools.${i}`;
    switch (tool.type) {
      case 'agent_toolset_20260401': {
        const configs = tool.configs ?? [];
        refuseDuplicates(configs.map((c, j) => ({ name: c.name, path: `${path}.configs.${j}.name` })), 'tool configuration');
        const defaults = resolveDefaultConfig(tool.default_config, AGENT_TOOLSET_DEFAULT_POLICY);
        return {
          configs: configs.map((c, j) => resolveToolConfig(c, defaults, `${path}.configs.${j}`, customTools)),
          default_config: defaults,
          type: 'agent_toolset_20260401',
        };
      }
      case 'mcp_toolset': {
        if (!serverNames.has(tool.mcp_server_name)) {
          throw invalidRequest(`${path}.mcp_server_name: no MCP server named ${JSON.stringify(tool.mcp_server_name)} in mcp_servers`);
        }
        const configs = tool.configs ?? [];
        refuseDuplicates(configs.map((c, j) => ({ name: c.name, path: `${path}.configs.${j}.name` })), 'tool configuration');
        const defaults = resolveDefaultConfig(tool.default_config, MCP_TOOLSET_DEFAULT_POLICY);
        return {
          configs: configs.map((c) => ({
            enabled: c.enabled ?? defaults.enabled,
            name: c.name,
            permission_policy: c.permission_policy ?? defaults.permission_policy,
          })),
          default_config: defaults,
          mcp_server_name: tool.mcp_server_name,
          type: 'mcp_toolset',
        };
      }
      case 'custom':
        checkInputSchema(tool, path);
        return { description: tool.description, input_schema: tool.input_schema, name: tool.name, type: 'custom' };
    }
  });

  const used = new Set(params.flatMap((t) => (t.type === 'mcp_toolset' ? [t.mcp_server_name] : [])));
  servers.forEach((server, i) => {
    if (!used.has(server.name)) {
      throw invalidRequest(`mcp_servers.${i}: server ${JSON.stringify(server.name)} is not used by any mcp_toolset in tools`);
    }
  });
  return tools;
}
