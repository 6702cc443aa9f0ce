import type { CallContext } from '@shared/bus/call-context';
import type { Session } from '@shared/schema/session';
import type { RuntimeEventBody } from '@shared/schema/session-event';
import { McpFailure } from '../clients/mcp-servers';
import { mcpFailureEvents, mcpResultContent } from '../domain/mcp-tools';
import { readLogState, type LoggedEvent, type McpCall, type OpenToolUse } from '../domain/session-log';
import type { RuntimeDeps } from '../deps';
import { appendAt, type LogCursor } from './session-log-writes';
import { withMcpBearer } from './mcp-credential';

/** A result is recorded at the log's end; a log moving this often is being answered by someone else anyway. */
const ATTEMPTS = 3;

/**
 * An agent.mcp_tool_use the model made (allowed, or confirmed by the client): the runtime calls
 * the server itself, with the session's vault credential for its URL, and records its answer as
 * agent.mcp_tool_result; the next step asks the model again. A server that cannot be used answers
 * the call as failed and ends the turn with the SDK's error kind (domain/mcp-tools.ts).
 */
export async function callMcpTool(
  deps: RuntimeDeps,
  ctx: CallContext,
  turn: { session: Session; log: LoggedEvent[]; cursor: LogCursor },
  use: OpenToolUse & { mcp: McpCall },
): Promise<boolean> {
  const { session } = turn;
  const server = session.agent.mcp_servers.find((s) => s.name === use.mcp.server);
  let events: RuntimeEventBody[];
  if (!server) {
    // The session's agent was updated since the call was made: its server is gone.
    const message = `the session's agent has no MCP server named ${use.mcp.server} any more`;
    events = mcpFailureEvents({ server: use.mcp.server, kind: 'connection', message }, use.id);
  } else {
    try {
      const result = await withMcpBearer(deps, ctx, server, session.vault_ids, (token) => deps.mcp.callTool(server, token, use.mcp.tool, use.mcp.input));
      events = [{ type: 'agent.mcp_tool_result', mcp_tool_use_id: use.id, content: mcpResultContent(result), is_error: result.isError }];
    } catch (err) {
      if (!(err instanceof McpFailure)) throw err;
      events = mcpFailureEvents({ server: server.name, kind: err.kind, message: err.message }, use.id);
    }
  }
  return recordAnswer(deps, ctx, turn, use.id, events);
}

/**
 * The call's answer appended at the log's end. The call is made once: a log that moved meanwhile
 * (a client's message) is read again and the answer appended after it, unless the call was
 * answered meanwhile (an interrupt answers it as stopped): then the answer is dropped.
 */
async function recordAnswer(
  deps: RuntimeDeps,
  ctx: CallContext,
  turn: { session: Session; log: LoggedEvent[]; cursor: LogCursor },
  callId: string,
  events: RuntimeEventBody[],
): Promise<boolean> {
  const { log, cursor } = turn;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (await appendAt(deps, ctx, cursor, events)) return true;
    log.push(...(await deps.sessions.readLog(ctx, turn.session.id, log.at(-1)?.sequence ?? 0)));
    const state = readLogState(log);
    if (state.interrupted || !state.openToolUses.some((use) => use.id === callId)) return true;
    cursor.after = state.last;
  }
  deps.logger.warn('an MCP tool result could not be recorded: the log kept moving', { session_id: turn.session.id, call_id: callId });
  return true;
}
