import { Type, type Static, type TNull, type TProperties, type TSchema } from '@sinclair/typebox';
import { Closed, Nullable } from './common';

/**
 * What an agent may use (SDK `resources/beta/agents/agents.d.ts`): tools (the built-in
 * `agent_toolset_20260401`, `mcp_toolset`s, custom tools), URL MCP servers and skills, each in
 * its params form (what a create or update accepts) and its response form (defaults filled in,
 * shorthands in their object form). Rules that span fields (unique names, a toolset naming a
 * declared server, the tool count) are in services/catalog/src/domain/agent-tools.ts.
 */

/**
 * A union of object variants, or null, written flat: the validator picks the variant a value's
 * `type` names and reports that variant's own error; a union nested inside a nullable one could
 * only say "does not match". `description` is what a value that names no variant is told.
 */
export const unionOrNull = <T extends TSchema[]>(variants: [...T], description: string) =>
  Type.Union([...variants, Type.Null()] as [...T, TNull], { description });

// ---------------------------------------------------------------------------------------------
// Permission policies and default configurations

/** `enabled` as sent: null means the default. */
const BooleanOrNull = Type.Union([Type.Boolean(), Type.Null()], { description: 'must be a boolean or null' });

const AlwaysAllow = Closed({ type: Type.Literal('always_allow') });
const AlwaysAsk = Closed({ type: Type.Literal('always_ask') });
const AutoPolicy = Closed({ type: Type.Literal('auto') });
const POLICY_FORMS = 'must be {"type": "always_allow"}, {"type": "always_ask"} or {"type": "auto"}';
export const PermissionPolicy = Type.Union([AlwaysAllow, AlwaysAsk, AutoPolicy], { description: POLICY_FORMS });
export type PermissionPolicy = Static<typeof PermissionPolicy>;
const PermissionPolicyParam = unionOrNull([AlwaysAllow, AlwaysAsk, AutoPolicy], POLICY_FORMS);

/** `default_config` as sent: both keys optional, null meaning the default. */
export const ToolsetDefaultConfigParams = Closed({
  enabled: Type.Optional(BooleanOrNull),
  permission_policy: Type.Optional(PermissionPolicyParam),
});
export type ToolsetDefaultConfigParams = Static<typeof ToolsetDefaultConfigParams>;

/** `default_config` as returned: resolved. */
export const ToolsetDefaultConfig = Closed({ enabled: Type.Boolean(), permission_policy: PermissionPolicy });
export type ToolsetDefaultConfig = Static<typeof ToolsetDefaultConfig>;

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
// mcp_toolset and URL MCP servers

/** 1 to 255 characters: an MCP server's name, and the toolset's reference to it. */
const McpServerName = Type.String({ minLength: 1, maxLength: 255 });
/** The most MCP tools one toolset may configure one by one. */
export const MCP_TOOL_CONFIGS_MAX = 256;

export const McpToolConfigParams = Closed({
  name: Type.String({ minLength: 1, maxLength: 128 }),
  enabled: Type.Optional(BooleanOrNull),
  permission_policy: Type.Optional(PermissionPolicyParam),
});
export type McpToolConfigParams = Static<typeof McpToolConfigParams>;

export const McpToolConfig = Closed({ enabled: Type.Boolean(), name: Type.String(), permission_policy: PermissionPolicy });
export type McpToolConfig = Static<typeof McpToolConfig>;

export const McpToolsetParams = Closed({
  type: Type.Literal('mcp_toolset'),
  mcp_server_name: McpServerName,
  configs: Type.Optional(Type.Array(McpToolConfigParams, { maxItems: MCP_TOOL_CONFIGS_MAX })),
  default_config: Type.Optional(Nullable(ToolsetDefaultConfigParams)),
});
export type McpToolsetParams = Static<typeof McpToolsetParams>;

export const McpToolset = Closed({
  configs: Type.Array(McpToolConfig),
  default_config: ToolsetDefaultConfig,
  mcp_server_name: Type.String(),
  type: Type.Literal('mcp_toolset'),
});
export type McpToolset = Static<typeof McpToolset>;

/** The most MCP servers one agent may declare (the SDK: "Maximum 20"). */
export const MCP_SERVERS_MAX = 20;

/**
 * A URL MCP server. It carries no credentials: the URL's own are refused (a vault holds them),
 * so what is stored and returned is never a secret.
 */
export const McpServerParams = Closed({
  name: McpServerName,
  type: Type.Literal('url'),
  url: Type.String({ minLength: 1, maxLength: 2048 }),
});
export type McpServerParams = Static<typeof McpServerParams>;

export const McpServer = Closed({ name: Type.String(), type: Type.Literal('url'), url: Type.String() });
export type McpServer = Static<typeof McpServer>;

// ---------------------------------------------------------------------------------------------
// Custom tools

/** The largest custom tool input schema, as JSON. */
export const INPUT_SCHEMA_MAX_BYTES = 64 * 1024;

/** A property's own schema: JSON Schema allows an object or a boolean. */
const PropertySchema = Type.Union([Type.Object({}), Type.Boolean()], { description: 'must be a JSON Schema (an object or a boolean)' });

/**
 * A custom tool's input: a JSON Schema whose root is an object schema. Besides `type`,
 * `properties` and `required` it may use any JSON Schema keyword, returned as given.
 */
export const CustomToolInputSchema = Type.Object(
  {
    type: Type.Literal('object'),
    properties: Type.Optional(Nullable(Type.Record(Type.String(), PropertySchema))),
    required: Type.Optional(Nullable(Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 1024 }))),
  },
  { additionalProperties: true, maxBytes: INPUT_SCHEMA_MAX_BYTES },
);
export type CustomToolInputSchema = Static<typeof CustomToolInputSchema>;

/** 1 to 128 letters, digits, underscores and hyphens (the SDK's rule). */
export const CustomToolName = Type.String({
  pattern: '^[A-Za-z0-9_-]{1,128}$',
  description: 'must be 1 to 128 letters, digits, underscores or hyphens',
});

export const CustomToolParams = Closed({
  type: Type.Literal('custom'),
  name: CustomToolName,
  description: Type.String({ minLength: 1, maxLength: 10_000 }),
  input_schema: CustomToolInputSchema,
});
export type CustomToolParams = Static<typeof CustomToolParams>;

export const CustomTool = Closed({
  description: Type.String(),
  input_schema: Type.Object(
    {
      type: Type.Literal('object'),
      properties: Type.Optional(Nullable(Type.Record(Type.String(), Type.Unknown()))),
      required: Type.Optional(Nullable(Type.Array(Type.String()))),
    },
    { additionalProperties: true },
  ),
  name: Type.String(),
  type: Type.Literal('custom'),
});
export type CustomTool = Static<typeof CustomTool>;

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
export const Skill = Type.Union([skillResponse('anthropic'), skillResponse('custom')]);
export type Skill = Static<typeof Skill>;
