import type { RuntimeEventBody } from '@shared/schema/session-event';
import type { LogState, OpenToolUse } from './session-log';

/**
 * A work item its worker ended (stopped, not handed back) while agent-toolset calls it was there
 * to run were still open: a worker that failed (the SDK's `SessionMemoryError`, a crash it caught,
 * its lifetime cut short). No worker will answer those calls, and a new item would most likely
 * fail the same way, so the turn ends the way every failed turn ends: a `session.error`
 * (`unknown_error`, `exhausted`), each call answered as failed (the conversation stays one the
 * Messages API accepts), and the session idle, for the client to send what comes next.
 *
 * Calls the client owes (a custom tool, a confirmation) are not the worker's; an interrupt closes
 * its turn itself (next-step.ts).
 */
export function workerOwedCalls(state: LogState): OpenToolUse[] {
  if (state.interrupted || state.lastStatus?.type === 'session.status_terminated') return [];
  return state.openToolUses.filter((use) => use.kind === 'agent.tool_use' && !use.awaitingConfirmation);
}

/** `reason`: why, when the worker said (a session that could not start); else the worker's log is where to look. */
export function abandonedCallEvents(workId: string, owed: readonly OpenToolUse[], reason?: string): RuntimeEventBody[] {
  const message = reason ?? `the environment worker ended work item '${workId}' without answering ${owed.length} tool call(s); see the worker's log for why`;
  const content = [{ type: 'text' as const, text: `This tool call was not run: ${message}.` }];
  return [
    { type: 'session.error', error: { type: 'unknown_error', message, retry_status: { type: 'exhausted' } } },
    ...owed.map((use): RuntimeEventBody => ({ type: 'user.tool_result', tool_use_id: use.id, content, is_error: true })),
    { type: 'session.status_idle', stop_reason: { type: 'retries_exhausted' }, stop_details: null },
  ];
}
