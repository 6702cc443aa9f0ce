import type { CallContext } from '@shared/bus/call-context';
import type { Session } from '@shared/schema/session';
import { McpFailure } from '../clients/mcp-servers';
import { mcpToolsetsOf, offeredMcpTools, type McpServerFailure, type McpToolRoute } from '../domain/mcp-tools';
import type { ToolDefinition } from '../domain/model-request';
import type { RuntimeDeps } from '../deps';
import { withMcpBearer } from './mcp-credential';

export type McpListing = { kind: 'listed'; tools: ToolDefinition[]; routes: Map<string, McpToolRoute> } | { kind: 'failed'; failure: McpServerFailure };

/**
 * The MCP tools a model request offers: each server the agent's toolsets use is listed now, with
 * the session's vault credential for its URL (domain/mcp-tools.ts; an OAuth token refreshed as
 * mcp-credential.ts says), and its enabled tools are
 * offered under their own names. `taken`: names the agent's other tools already use. The first
 * server (in the agent's order) that cannot be used fails the listing: a turn is not run with a
 * toolset silently missing.
 */
export async function listMcpTools(deps: RuntimeDeps, ctx: CallContext, session: Session, taken: ReadonlySet<string>): Promise<McpListing> {
  const used = mcpToolsetsOf(session.agent);
  if (used.length === 0) return { kind: 'listed', tools: [], routes: new Map() };
  const results = await Promise.allSettled(
    used.map(({ server }) => withMcpBearer(deps, ctx, server, session.vault_ids, (token) => deps.mcp.listTools(server, token))),
  );
  const listed = [];
  for (const [i, result] of results.entries()) {
    const { server, toolset } = used[i]!;
    if (result.status === 'fulfilled') {
      listed.push({ server, toolset, tools: result.value });
      continue;
    }
    if (!(result.reason instanceof McpFailure)) throw result.reason;
    return { kind: 'failed', failure: { server: server.name, kind: result.reason.kind, message: result.reason.message } };
  }
  const offered = offeredMcpTools(listed, taken);
  if (offered.skipped.length > 0) {
    deps.logger.warn('MCP tools not offered: a name already taken or not a tool name the model API takes', { session_id: session.id, tools: offered.skipped });
  }
  return { kind: 'listed', tools: offered.tools, routes: offered.routes };
}
