import { Type, type Static, type TProperties, type TSchema } from '@sinclair/typebox';
import { Closed, Nullable } from './common';
// The policies, MCP and custom tools are files of their own, importable from here too.
export * from './agent-tool-policies';
export * from './agent-mcp-tools';
export * from './agent-custom-tools';
import { BooleanOrNull, PermissionPolicy, PermissionPolicyParam, ToolsetDefaultConfig, ToolsetDefaultConfigParams } from './agent-tool-policies';
import { MCP_SERVERS_MAX, McpServerParams, McpToolset, McpToolsetParams } from './agent-mcp-tools';
import { CustomTool, CustomToolParams } from './agent-custom-tools';

/**
 * What an agent may use (SDK `resources/beta/agents/agents.d.ts`): tools (the built-in
 * `agent_toolset_20260401`, `mcp_toolset`s, custom tools), URL MCP servers and skills, each in
 * its params form (what a create or update accepts) and its response form (defaults filled in,
 * shorthands in their object form). Rules that span fields (unique names, a toolset naming a
 * declared server, the tool count) are in services/catalog/src/domain/agent-tools.ts.
 */

// ---------------------------------------------------------------------------------------------
// agent_toolset_20260401: the built-in tools and their per-tool configurations

export const BUILT_IN_TOOLS = ['bash', 'edit', 'read', 'write', 'glob', 'grep', 'web_fetch', 'web_search'] as const;
export type BuiltInTool = (typeof BUILT_IN_TOOLS)[number];

/** What every per-tool override may say, keyed by the tool's `name` (its `type`, if sent, must repeat it). */
const toolConfigParams = <N extends BuiltInTool, P extends TProperties>(name: N, extra: P) =>
  Closed({
    name: Type.Literal(name),
    type: Type.Optional(Type.Literal(name)),
    enabled: Type.Optional(BooleanOrNull),
    permission_policy: Type.Optional(PermissionPolicyParam),
    ...extra,
  });

const toolConfig = <N extends BuiltInTool, P extends TProperties>(name: N, extra: P) =>
  Closed({
    name: Type.Literal(name),
    type: Type.Literal(name),
    enabled: Type.Boolean(),
    permission_policy: PermissionPolicy,
    ...extra,
  });

/** Hostnames like `docs.example.com`: no scheme, port or path. */
const HOSTNAME = '(?=[^/]{1,253}(?:/|$))[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*';
const Hostname = Type.String({
  maxLength: 253,
  pattern: `^${HOSTNAME}$`,
  description: 'must be a plain hostname like "docs.example.com" (no scheme, port or path)',
});
/** web_search also accepts a path suffix (`example.com/blog`). */
const HostnameWithPath = Type.String({
  maxLength: 2048,
  pattern: `^${HOSTNAME}(?:/[^\\s]*)?$`,
  description: 'must be a hostname like "docs.example.com", optionally with a path (no scheme or port)',
});
/** At most 64 entries; an empty list is refused (the SDK: omit the field instead). */
const domainList = <T extends TSchema>(entry: T) => Type.Optional(Type.Array(entry, { minItems: 1, maxItems: 64 }));

export const UserLocation = Closed({
  type: Type.Literal('approximate'),
  city: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 255 }))),
  country: Type.Optional(
    Nullable(Type.String({ pattern: '^[A-Z]{2}$', description: 'must be a two-letter ISO 3166-1 country code, uppercase' })),
  ),
  region: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 255 }))),
  timezone: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64 }))),
});
export type UserLocation = Static<typeof UserLocation>;

/** web_fetch's `url_sources`: which sources contribute URLs the tool may fetch. */
const SourceAll = Closed({ type: Type.Literal('all') });
const SourceNone = Closed({ type: Type.Literal('none') });
export const ToolReference = Closed({ name: Type.String({ minLength: 1, maxLength: 128 }), type: Type.Literal('tool_reference') });
const toolList = Type.Array(ToolReference, { minItems: 1, maxItems: 128 });
const SourceOnly = Closed({ tools: toolList, type: Type.Literal('only') });
const SourceExcept = Closed({ tools: toolList, type: Type.Literal('except') });
const Shorthand = [Type.Literal('all'), Type.Literal('none')] as const;

const FILTER_FORMS = 'must be "all", "none", or an object whose type is "all", "none", "only" or "except"';
export const UrlSourceToolFilter = Type.Union([SourceAll, SourceNone, SourceOnly, SourceExcept]);
export type UrlSourceToolFilter = Static<typeof UrlSourceToolFilter>;
const UrlSourceToolFilterParam = Type.Union([...Shorthand, SourceAll, SourceNone, SourceOnly, SourceExcept, Type.Null()], {
  description: FILTER_FORMS,
});
export const UrlSourceUserInput = Type.Union([SourceAll, SourceNone]);
const UrlSourceUserInputParam = Type.Union([...Shorthand, SourceAll, SourceNone, Type.Null()], {
  description: 'must be "all", "none", {"type": "all"} or {"type": "none"}',
});

export const UrlSourcesParams = Closed({
  client_tool_results: Type.Optional(UrlSourceToolFilterParam),
  server_tool_results: Type.Optional(UrlSourceToolFilterParam),
  user_input: Type.Optional(UrlSourceUserInputParam),
});
export type UrlSourcesParams = Static<typeof UrlSourcesParams>;

/** Returned in the object form; a key that is null was not set (every URL of that source allowed). */
export const UrlSources = Closed({
  client_tool_results: Nullable(UrlSourceToolFilter),
  server_tool_results: Nullable(UrlSourceToolFilter),
  user_input: Nullable(UrlSourceUserInput),
});
export type UrlSources = Static<typeof UrlSources>;

const MaxContentTokens = Type.Integer({ minimum: 1, maximum: 1_000_000 });

const simpleTools = ['bash', 'edit', 'read', 'write', 'glob', 'grep'] as const;

export const AgentToolConfigParams = Type.Union(
  [
    ...simpleTools.map((name) => toolConfigParams(name, {})),
    toolConfigParams('web_fetch', {
      allowed_domains: domainList(Hostname),
      blocked_domains: domainList(Hostname),
      max_content_tokens: Type.Optional(Nullable(MaxContentTokens)),
      url_sources: Type.Optional(Nullable(UrlSourcesParams)),
    }),
    toolConfigParams('web_search', {
      allowed_domains: domainList(HostnameWithPath),
      blocked_domains: domainList(HostnameWithPath),
      user_location: Type.Optional(Nullable(UserLocation)),
    }),
  ],
  { description: `must be an object whose name is one of ${BUILT_IN_TOOLS.map((t) => `"${t}"`).join(', ')}` },
);
export type AgentToolConfigParams = Static<typeof AgentToolConfigParams>;

export const AgentToolConfig = Type.Union([
  ...simpleTools.map((name) => toolConfig(name, {})),
  toolConfig('web_fetch', {
    url_sources: Nullable(UrlSources),
    allowed_domains: Type.Optional(Type.Array(Type.String())),
    blocked_domains: Type.Optional(Type.Array(Type.String())),
    max_content_tokens: Type.Optional(Nullable(Type.Integer())),
  }),
  toolConfig('web_search', {
    allowed_domains: Type.Optional(Type.Array(Type.String())),
    blocked_domains: Type.Optional(Type.Array(Type.String())),
    user_location: Type.Optional(Nullable(UserLocation)),
  }),
]);
export type AgentToolConfig = Static<typeof AgentToolConfig>;

export const AgentToolsetParams = Closed({
  type: Type.Literal('agent_toolset_20260401'),
  configs: Type.Optional(Type.Array(AgentToolConfigParams, { maxItems: BUILT_IN_TOOLS.length })),
  default_config: Type.Optional(Nullable(ToolsetDefaultConfigParams)),
});
export type AgentToolsetParams = Static<typeof AgentToolsetParams>;

/** Returned with the configurations that were given, each resolved against `default_config`. */
export const AgentToolset = Closed({
  configs: Type.Array(AgentToolConfig),
  default_config: ToolsetDefaultConfig,
  type: Type.Literal('agent_toolset_20260401'),
});
export type AgentToolset = Static<typeof AgentToolset>;

// ---------------------------------------------------------------------------------------------
// The tools and skills lists

/** The most entries `tools` may hold (the SDK: "Maximum of 256 tools across all toolsets"). */
export const TOOLS_MAX = 256;
/**
 * The most `tools` may weigh as JSON. Every agent version keeps its own copy and every session
 * snapshots one: 256 tools of 64 KiB schemas would be 16 MiB per session. A realistic tool list
 * (a hundred tools with rich schemas) weighs a few hundred KiB.
 */
export const TOOLS_MAX_BYTES = 1024 * 1024;

export const AgentToolParams = Type.Union([AgentToolsetParams, McpToolsetParams, CustomToolParams], {
  description: 'must be an object whose type is "agent_toolset_20260401", "mcp_toolset" or "custom"',
});
export type AgentToolParams = Static<typeof AgentToolParams>;
export const AgentToolsParams = Type.Array(AgentToolParams, { maxItems: TOOLS_MAX, maxBytes: TOOLS_MAX_BYTES });

export const AgentTool = Type.Union([AgentToolset, McpToolset, CustomTool]);
export type AgentTool = Static<typeof AgentTool>;

export const McpServersParams = Type.Array(McpServerParams, { maxItems: MCP_SERVERS_MAX });

/** The most skills one agent may load. */
export const SKILLS_MAX = 20;

const SkillVersion = Type.String({
  pattern: '^[A-Za-z0-9._-]{1,64}$',
  description: 'must be 1 to 64 letters, digits, dots, underscores or hyphens',
});
const skillParams = <T extends 'anthropic' | 'custom', I extends TSchema>(type: T, skillId: I) =>
  Closed({ skill_id: skillId, type: Type.Literal(type), version: Type.Optional(Nullable(SkillVersion)) });

/** Anthropic skills are named (`xlsx`, `pdf`); custom skills by their tagged id (`skill_01XJ5...`). */
export const SkillParams = Type.Union(
  [
    skillParams(
      'anthropic',
      Type.String({
        pattern: '^[a-z0-9][a-z0-9_-]{0,63}$',
        description: 'must be a skill name of 1 to 64 lowercase letters, digits, underscores or hyphens (e.g. "xlsx")',
      }),
    ),
    skillParams(
      'custom',
      Type.String({ pattern: '^skill_[A-Za-z0-9]{1,64}$', description: 'must be a custom skill id like "skill_01XJ5..."' }),
    ),
  ],
  { description: 'must be an object whose type is "anthropic" or "custom"' },
);
export type SkillParams = Static<typeof SkillParams>;
export const SkillsParams = Type.Array(SkillParams, { maxItems: SKILLS_MAX });

/** A skill with no pinned version is stored and returned as `latest`: it loads the newest one. */
export const LATEST_SKILL_VERSION = 'latest';
const skillResponse = <T extends 'anthropic' | 'custom'>(type: T) =>
  Closed({ skill_id: Type.String(), type: Type.Literal(type), version: Type.String() });
export const AgentSkill = Type.Union([skillResponse('anthropic'), skillResponse('custom')]);
export type AgentSkill = Static<typeof AgentSkill>;
