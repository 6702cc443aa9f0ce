import type { RuntimeEventBody } from '@shared/schema/session-event';
import { requestFailedEnd } from './model-response';
import type { LogState, McpCall, OpenToolUse, OutcomeState } from './session-log';

/**
 * The one thing a session needs next, decided from its log alone (pure; the handler does it):
 * - `none`: nothing to do until someone sends something;
 * - `append`: record status events (idle with the reason, running);
 * - `callMcp`: an MCP tool call the runtime makes itself (its server is reached from the runtime,
 *   not the sandbox: docs/decisions.md), one at a time, before anything waits on the client;
 * - `awaitWorker`: agent-toolset calls wait for an environment worker: make sure the session's
 *   work item is queued;
 * - `callModel`: run a model request, recorded under `startId` when one was begun and never ended;
 * - `evaluateOutcome`: grade the agent's work against the outcome's rubric, recorded under
 *   `startId` when an evaluation was begun and never ended.
 */
export type NextStep =
  | { kind: 'none' }
  /** `stopWorker`: an interrupt ends the turn: the session's worker is stopped first, killing the tool it runs. */
  | { kind: 'append'; events: RuntimeEventBody[]; stopWorker?: true }
  | { kind: 'callMcp'; use: OpenToolUse & { mcp: McpCall } }
  | { kind: 'awaitWorker' }
  | { kind: 'callModel'; startId: string | undefined }
  | { kind: 'evaluateOutcome'; outcome: OutcomeState; startId: string | undefined };

const idle = (stop_reason: Extract<RuntimeEventBody, { type: 'session.status_idle' }>['stop_reason']): RuntimeEventBody => ({
  type: 'session.status_idle',
  stop_reason,
  stop_details: null,
});

/** Whether the log's last status is already `idle` with this stop reason (so it is not written twice). */
function idleWith(state: LogState, reason: string, eventIds?: readonly string[]): boolean {
  const status = state.lastStatus;
  if (status?.type !== 'session.status_idle' || status.stop_reason.type !== reason) return false;
  if (!eventIds) return true;
  const named = status.stop_reason.type === 'requires_action' ? status.stop_reason.event_ids : [];
  return named.length === eventIds.length && named.every((id, i) => id === eventIds[i]);
}

/**
 * Already at rest with nothing owed by the client: an interrupt has no turn to stop (it is no new
 * input either), so it writes nothing. Idle waiting on the client (`requires_action`) is not such
 * a rest: the interrupt ends that turn, and the stop reason must say so.
 */
function resting(state: LogState): boolean {
  const status = state.lastStatus;
  return status?.type === 'session.status_idle' && status.stop_reason.type !== 'requires_action';
}

export function nextStep(state: LogState, budget: { reached: boolean }): NextStep {
  if (state.lastStatus?.type === 'session.status_terminated') return { kind: 'none' };
  // A request begun and never recorded is finished first: its events are still owed to the log;
  // unless an interrupt came after it began: the turn is over, and the request is not sent again.
  if (state.openRequestStartId) {
    if (!state.interrupted) return { kind: 'callModel', startId: state.openRequestStartId };
    return { kind: 'append', events: [requestFailedEnd(state.openRequestStartId), idle({ type: 'end_turn' })], stopWorker: true };
  }
  const outcome = state.outcome;
  if (outcome?.openEvaluationStartId) {
    // An interrupt during grading ends the outcome (SDK: `interrupted`); otherwise the grading is finished first.
    if (state.interrupted) return { kind: 'append', events: [outcomeInterrupted(outcome, outcome.openEvaluationStartId), idle({ type: 'end_turn' })] };
    return { kind: 'evaluateOutcome', outcome, startId: outcome.openEvaluationStartId };
  }
  if (state.interrupted) {
    if (resting(state)) return { kind: 'none' };
    // The turn ends with its calls: each still open is answered as interrupted (else the session's
    // next worker would run it again), and its worker is stopped, which kills the tool it runs.
    return { kind: 'append', events: [...state.openToolUses.map(interruptedResult), idle({ type: 'end_turn' })], stopWorker: true };
  }
  if (state.openToolUses.length > 0) {
    // The runtime's own calls first: they need nobody, and a client's answer may come meanwhile.
    const mcp = state.openToolUses.find((use) => use.kind === 'agent.mcp_tool_use' && !use.awaitingConfirmation && use.mcp);
    if (mcp?.mcp) return { kind: 'callMcp', use: { ...mcp, mcp: mcp.mcp } };
    // The client owes an answer (a custom tool's result, a confirmation): idle until it comes.
    const clients = state.openToolUses.filter((use) => use.kind === 'agent.custom_tool_use' || use.awaitingConfirmation).map((use) => use.id);
    if (clients.length > 0) {
      return idleWith(state, 'requires_action', clients)
        ? { kind: 'none' }
        : { kind: 'append', events: [idle({ type: 'requires_action', event_ids: clients })] };
    }
    return { kind: 'awaitWorker' };
  }
  if (!state.inputSinceLastResponse) {
    // The agent's turn ended with an outcome to meet: a grader looks at the work before the session rests.
    if (!outcome?.awaitingEvaluation) return { kind: 'none' };
    if (budget.reached) return { kind: 'append', events: [idle({ type: 'budget_reached' })] };
    return { kind: 'evaluateOutcome', outcome, startId: undefined };
  }
  if (budget.reached) {
    return idleWith(state, 'budget_reached') ? { kind: 'none' } : { kind: 'append', events: [idle({ type: 'budget_reached' })] };
  }
  return { kind: 'callModel', startId: undefined };
}

const INTERRUPTED = 'The user interrupted the session: this tool call was stopped before it finished.';

function interruptedResult(use: OpenToolUse): RuntimeEventBody {
  const content = [{ type: 'text' as const, text: INTERRUPTED }];
  if (use.kind === 'agent.custom_tool_use') return { type: 'user.custom_tool_result', custom_tool_use_id: use.id, content, is_error: true };
  if (use.kind === 'agent.mcp_tool_use') return { type: 'agent.mcp_tool_result', mcp_tool_use_id: use.id, content, is_error: true };
  return { type: 'user.tool_result', tool_use_id: use.id, content, is_error: true };
}

const NO_USAGE = { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };

function outcomeInterrupted(outcome: OutcomeState, startId: string): RuntimeEventBody {
  return {
    type: 'span.outcome_evaluation_end',
    outcome_id: outcome.outcomeId,
    iteration: outcome.iteration,
    outcome_evaluation_start_id: startId,
    result: 'interrupted',
    explanation: 'The user interrupted the session while the outcome was being evaluated.',
    usage: NO_USAGE,
  };
}
