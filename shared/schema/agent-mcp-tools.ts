import { Type, type Static } from '@sinclair/typebox';
import { Closed, Nullable } from './common';
import { BooleanOrNull, PermissionPolicy, PermissionPolicyParam, ToolsetDefaultConfig, ToolsetDefaultConfigParams } from './agent-tool-policies';

/** `mcp_toolset` tools and the URL MCP servers they name (SDK agents.d.ts). */

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

