import type { McpServer, McpToolset } from '@shared/schema/agent-mcp-tools';
import type { SessionAgent } from '@shared/schema/session';
import type { RuntimeEventBody } from '@shared/schema/session-event';
import type { ResolveCredentialsReply, ResolvedCredential } from '@shared/schema/vault-credential';
import type { ToolDefinition } from './model-request';

/**
 * The rules of an agent's MCP tools (pure; clients/mcp-servers.ts does the talking): which servers
 * a turn lists, which of their tools the model is offered and under which policy, which vault
 * credential authenticates a server, and a server's answer as session event content.
 */

/** Where a model's tool call goes when the tool is an MCP server's, and whether it waits for a confirmation. */
export interface McpToolRoute {
  server: string;
  permission: 'allow' | 'ask';
}

/** A server the turn lists tools of, with the toolset that configures them. */
export interface McpToolsetOfServer {
  server: McpServer;
  toolset: McpToolset;
}

/**
 * The agent's MCP servers its `mcp_toolset`s use, in the order of its tools. A toolset that
 * enables nothing (disabled by default, no tool enabled by name) needs no connection.
 */
export function mcpToolsetsOf(agent: Pick<SessionAgent, 'tools' | 'mcp_servers'>): McpToolsetOfServer[] {
  const used: McpToolsetOfServer[] = [];
  for (const tool of agent.tools) {
    if (tool.type !== 'mcp_toolset') continue;
    const server = agent.mcp_servers.find((s) => s.name === tool.mcp_server_name);
    if (!server) continue;
    if (!tool.default_config.enabled && !tool.configs.some((c) => c.enabled)) continue;
    used.push({ server, toolset: tool });
  }
  return used;
}

/** A server tool's configuration: its own entry in the toolset, else the toolset's default. */
export function mcpToolConfig(toolset: McpToolset, tool: string): { enabled: boolean; permission: 'allow' | 'ask' } {
  const config = toolset.configs.find((c) => c.name === tool);
  const enabled = config?.enabled ?? toolset.default_config.enabled;
  const policy = config?.permission_policy ?? toolset.default_config.permission_policy;
  // `auto` is judged like the agent toolset's: the runtime has no per-call judge, so it runs.
  return { enabled, permission: policy.type === 'always_ask' ? 'ask' : 'allow' };
}

/** Tool names the Messages API takes. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;

/**
 * The MCP tools the model is offered, under their servers' own names (as the Messages API's MCP
 * connector and the session's agent.mcp_tool_use events name them), each enabled one once:
 * a name the agent's other tools, or an earlier server, already use is not offered again (the
 * model could not say which it meant), nor one the Messages API would refuse. `skipped` says which.
 */
export function offeredMcpTools(
  listed: ReadonlyArray<McpToolsetOfServer & { tools: readonly ToolDefinition[] }>,
  taken: ReadonlySet<string>,
): { tools: ToolDefinition[]; routes: Map<string, McpToolRoute>; skipped: string[] } {
  const tools: ToolDefinition[] = [];
  const routes = new Map<string, McpToolRoute>();
  const skipped: string[] = [];
  for (const { server, toolset, tools: serverTools } of listed) {
    for (const tool of serverTools) {
      const { enabled, permission } = mcpToolConfig(toolset, tool.name);
      if (!enabled) continue;
      if (!TOOL_NAME.test(tool.name) || taken.has(tool.name) || routes.has(tool.name)) {
        skipped.push(`${server.name}/${tool.name}`);
        continue;
      }
      routes.set(tool.name, { server: server.name, permission });
      tools.push(tool);
    }
  }
  return { tools, routes, skipped };
}

/** A URL as compared for credentials: scheme, host and port as the URL parser normalises them, the path without a trailing slash. */
function urlKey(url: string): string | undefined {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}${u.search}`;
  } catch {
    return undefined;
  }
}

/** The vault credential that authenticates an MCP server, with where it is kept (for a refresh). */
export interface McpCredential {
  vault_id: string;
  credential_id: string;
  auth: Exclude<ResolvedCredential['auth'], { type: 'environment_variable' }>;
}

/**
 * The credential of a server: the first, in the session's vault order, whose `mcp_server_url` is
 * the server's URL. Vaults that are not `ok` give nothing. Undefined: the server is called without one.
 */
export function credentialFor(serverUrl: string, vaults: ResolveCredentialsReply['vaults']): McpCredential | undefined {
  const key = urlKey(serverUrl);
  if (key === undefined) return undefined;
  for (const vault of vaults) {
    if (vault.state !== 'ok') continue;
    for (const { id, auth } of vault.credentials) {
      if (auth.type === 'environment_variable' || urlKey(auth.mcp_server_url) !== key) continue;
      return { vault_id: vault.id, credential_id: id, auth };
    }
  }
  return undefined;
}

/** The bearer token a credential sends: `static_bearer`'s token, `mcp_oauth`'s access token. */
export const bearerOf = (credential: McpCredential | undefined): string | undefined =>
  credential && (credential.auth.type === 'static_bearer' ? credential.auth.token : credential.auth.access_token);

/** The bearer token of a server (credentialFor's, as bearerOf sends it). */
export const bearerFor = (serverUrl: string, vaults: ResolveCredentialsReply['vaults']): string | undefined => bearerOf(credentialFor(serverUrl, vaults));

/**
 * Whether an `mcp_oauth` access token is past its `expires_at` by the runtime's clock, and can be
 * refreshed: then it is exchanged before it is sent. An unknown expiry is learnt from a 401.
 */
export const oauthExpired = (credential: McpCredential | undefined, now: Date): boolean =>
  credential?.auth.type === 'mcp_oauth' &&
  !!credential.auth.refresh &&
  !!credential.auth.expires_at &&
  Date.parse(credential.auth.expires_at) <= now.getTime();

/** A tool result block as the session's log holds it. */
export type ResultBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } };

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/**
 * An MCP `tools/call` result's content as the log's (and the model's) tool result blocks: text as
 * text, images the Messages API takes as images, an embedded text resource as its text; what the
 * model cannot read (audio, binary resources) is named in a line of text. Structured content
 * with no content blocks is given as its JSON.
 */
export function mcpResultContent(result: { content?: unknown; structuredContent?: unknown }): ResultBlock[] {
  const blocks: ResultBlock[] = [];
  const content = Array.isArray(result.content) ? (result.content as Array<Record<string, unknown>>) : [];
  for (const block of content) {
    if (block.type === 'text' && typeof block.text === 'string') blocks.push({ type: 'text', text: block.text });
    else if (block.type === 'image' && typeof block.data === 'string' && IMAGE_TYPES.has(String(block.mimeType))) {
      blocks.push({ type: 'image', source: { type: 'base64', media_type: String(block.mimeType), data: block.data } });
    } else if (block.type === 'resource' && typeof (block.resource as { text?: unknown })?.text === 'string') {
      blocks.push({ type: 'text', text: (block.resource as { text: string }).text });
    } else if (block.type === 'resource_link') {
      blocks.push({ type: 'text', text: `[resource ${String(block.uri)}]` });
    } else {
      blocks.push({ type: 'text', text: `[${String(block.type)} content the model cannot read]` });
    }
  }
  if (blocks.length === 0 && result.structuredContent !== undefined) blocks.push({ type: 'text', text: JSON.stringify(result.structuredContent) });
  return blocks;
}

/** An MCP server that could not be used, as its session reports it. */
export interface McpServerFailure {
  server: string;
  kind: 'connection' | 'authentication';
  message: string;
}

/**
 * What an MCP server that could not be used records: the SDK's error kind naming the server,
 * `exhausted` (the turn is over; the client may send again once the server or the vault is
 * fixed), and the session idle, as a model request that failed for good leaves it
 * (model-errors.ts `turnEndingError`). A call is answered first, so the model never sees a
 * call without its result.
 */
export function mcpFailureEvents(failure: McpServerFailure, callId?: string): RuntimeEventBody[] {
  const type = failure.kind === 'authentication' ? 'mcp_authentication_failed_error' : 'mcp_connection_failed_error';
  return [
    ...(callId
      ? [{ type: 'agent.mcp_tool_result' as const, mcp_tool_use_id: callId, content: [{ type: 'text' as const, text: failure.message }], is_error: true }]
      : []),
    { type: 'session.error', error: { type, message: failure.message, mcp_server_name: failure.server, retry_status: { type: 'exhausted' } } },
    { type: 'session.status_idle', stop_reason: { type: 'retries_exhausted' }, stop_details: null },
  ];
}
