import type { Static } from '@sinclair/typebox';
import type { FollowSessionEventsReply, SessionEvent } from '@shared/schema/session-event';

/**
 * One event of a session's log with its place in it: an item of the deployments service's follow
 * reply, from that reply's schema. Its event is the precise `SessionEvent` type: the schema's union
 * is built from a table (shared/schema/session-event-log.ts), so its own Static type names no kind.
 */
export type LoggedEvent = Omit<Static<typeof FollowSessionEventsReply>['events'][number], 'event'> & { event: SessionEvent };

/**
 * The kinds the agent answers: what a client (or an environment worker) sends, and an MCP
 * server's result, which the runtime records itself (it called the server) and the model reads next.
 */
const INPUT_TYPES = new Set([
  'user.message',
  'user.tool_result',
  'user.custom_tool_result',
  'user.tool_confirmation',
  'user.define_outcome',
  'agent.mcp_tool_result',
]);

export const isInput = (event: SessionEvent): boolean => INPUT_TYPES.has(event.type);

/** A tool call the agent made that nothing has answered yet. */
export interface OpenToolUse {
  id: string;
  /**
   * `agent.tool_use` runs in the environment (a worker answers it); `agent.custom_tool_use` is the
   * client's; `agent.mcp_tool_use` is an MCP server's, which the runtime calls.
   */
  kind: 'agent.tool_use' | 'agent.custom_tool_use' | 'agent.mcp_tool_use';
  /** Waits for the client's user.tool_confirmation before a worker (or the runtime) may run it. */
  awaitingConfirmation: boolean;
  /** An MCP call's server, tool and arguments: what the runtime sends. */
  mcp?: McpCall;
}

/** An MCP tool call as the runtime makes it. */
export interface McpCall {
  server: string;
  tool: string;
  input: Record<string, unknown>;
}

/**
 * The session's outcome (its latest user.define_outcome) and where its evaluate-and-revise loop
 * stands. Cycles are counted by the log's evaluation spans, so a replica that takes over grades
 * the same iteration the one before it would have.
 */
export interface OutcomeState {
  outcomeId: string;
  description: string;
  rubric: Extract<SessionEvent, { type: 'user.define_outcome' }>['rubric'];
  maxIterations: number;
  /** The iteration of the next evaluation (or of the open one): 0 first, then one more per verdict. */
  iteration: number;
  /** A span.outcome_evaluation_start with no end after it: an evaluation begun and not recorded. */
  openEvaluationStartId: string | undefined;
  /** A verdict other than needs_revision was recorded: no evaluation follows. */
  ended: boolean;
  /** The agent ended a turn (a response that asked for no tool) since the last verdict: it is due for grading. */
  awaitingEvaluation: boolean;
}

/**
 * What a session's log says about where its agent loop stands: read again from the log before
 * every step, so a replica that takes a session over (or retries a step) decides exactly as the
 * one before it would have.
 */
export interface LogState {
  /** The log's last sequence: what the next append is fenced on. */
  last: number;
  /** The last status event's kind, if any. */
  lastStatus: SessionEvent | undefined;
  /** A span.model_request_start with no end after it: a model request begun and not recorded (its replica died). */
  openRequestStartId: string | undefined;
  /** Whether the client said anything after the last recorded model response or rest (or ever, before the first). */
  inputSinceLastResponse: boolean;
  /** A user.interrupt after the last recorded model response. */
  interrupted: boolean;
  openToolUses: OpenToolUse[];
  /** The latest outcome defined, if any. */
  outcome: OutcomeState | undefined;
  /**
   * Compactions of the conversation since the model last produced a message or a tool call (or
   * the session last rested): the SDK's compaction_limit_reached_error bounds them.
   */
  compactionsInARow: number;
  /**
   * The agent called a toolset tool (`agent.tool_use`) at some point: only such a call queues a
   * work item for the session (domain/next-step.ts `awaitWorker`), so a session without one has
   * never had a worker, and no worker of it can be stopping.
   */
  workerEverWanted: boolean;
}

export function readLogState(log: readonly LoggedEvent[]): LogState {
  let lastStatus: SessionEvent | undefined;
  let openRequestStartId: string | undefined;
  let inputSinceLastResponse = false;
  let interrupted = false;
  const uses = new Map<string, OpenToolUse>();
  const confirmed = new Set<string>();
  // Calls open when an interrupt came: their turn is over, so an answer to one is no new input.
  const abandoned = new Set<string>();
  let outcome: OutcomeState | undefined;
  // Tool calls of the response being recorded: a response without any ends the agent's turn.
  let toolCallsInResponse = 0;
  // A span in which the conversation was compacted (domain/context-compaction.ts) is no response:
  // the turn it was opened for is still owed once it ends.
  let compactingSpan: string | undefined;
  let compactionsInARow = 0;
  let workerEverWanted = false;
  for (const { event } of log) {
    switch (event.type) {
      case 'span.model_request_start':
        openRequestStartId = event.id;
        toolCallsInResponse = 0;
        break;
      case 'agent.thread_context_compacted':
        compactingSpan = openRequestStartId;
        compactionsInARow++;
        break;
      case 'span.model_request_end':
        if (compactingSpan !== undefined && event.model_request_start_id === compactingSpan) {
          openRequestStartId = compactingSpan = undefined;
          break;
        }
        openRequestStartId = undefined;
        inputSinceLastResponse = false;
        // A request that ended without an answer (one an interrupt stopped) is no response.
        if (event.is_error !== true) interrupted = false;
        if (outcome && !outcome.ended && event.is_error === false && toolCallsInResponse === 0) outcome.awaitingEvaluation = true;
        break;
      case 'agent.message':
        compactionsInARow = 0;
        break;
      case 'agent.tool_use':
        uses.set(event.id, { id: event.id, kind: 'agent.tool_use', awaitingConfirmation: event.evaluated_permission === 'ask' });
        workerEverWanted = true;
        toolCallsInResponse++;
        compactionsInARow = 0;
        break;
      case 'agent.custom_tool_use':
        uses.set(event.id, { id: event.id, kind: 'agent.custom_tool_use', awaitingConfirmation: false });
        toolCallsInResponse++;
        compactionsInARow = 0;
        break;
      case 'agent.mcp_tool_use':
        uses.set(event.id, {
          id: event.id,
          kind: 'agent.mcp_tool_use',
          awaitingConfirmation: event.evaluated_permission === 'ask',
          mcp: { server: event.mcp_server_name, tool: event.name, input: event.input },
        });
        toolCallsInResponse++;
        compactionsInARow = 0;
        break;
      case 'agent.mcp_tool_result':
        uses.delete(event.mcp_tool_use_id);
        break;
      case 'user.define_outcome':
        outcome = {
          outcomeId: event.outcome_id,
          description: event.description,
          rubric: event.rubric,
          maxIterations: event.max_iterations,
          iteration: 0,
          openEvaluationStartId: undefined,
          ended: false,
          awaitingEvaluation: false,
        };
        break;
      case 'span.outcome_evaluation_start':
        if (outcome?.outcomeId === event.outcome_id) {
          outcome.openEvaluationStartId = event.id;
          outcome.awaitingEvaluation = false;
        }
        break;
      case 'span.outcome_evaluation_end':
        if (outcome?.outcomeId === event.outcome_id) {
          outcome.openEvaluationStartId = undefined;
          outcome.iteration = event.iteration + 1;
          outcome.ended = event.result !== 'needs_revision';
          // The grader's feedback (or, at max_iterations_reached, the news that grading is over)
          // is what the agent answers next: one more turn.
          if (event.result === 'needs_revision' || event.result === 'max_iterations_reached') inputSinceLastResponse = true;
        }
        break;
      case 'user.tool_result':
        uses.delete(event.tool_use_id);
        break;
      case 'user.custom_tool_result':
        uses.delete(event.custom_tool_use_id);
        break;
      case 'user.tool_confirmation':
        // A denial answers the call (the model hears of it); an approval lets a worker run it.
        if (event.result === 'deny') uses.delete(event.tool_use_id);
        else confirmed.add(event.tool_use_id);
        break;
      case 'user.interrupt':
        interrupted = true;
        // The turn stops, its tools included: the runtime stops the session's worker and answers
        // these calls as interrupted (domain/next-step.ts); a worker's late result is not input.
        for (const id of uses.keys()) abandoned.add(id);
        // An interrupted agent is not graded on the turn it was stopped in.
        if (outcome) outcome.awaitingEvaluation = false;
        break;
      default:
        if (event.type.startsWith('session.status_')) lastStatus = event;
        // A rest answers everything before it: the runtime appends idle fenced on the log's end,
        // so it decided having read all of it. Without this, a turn that ended with no response
        // recorded (no model key) left the input "new" and the session was driven again at once,
        // for ever: every append's own notice brought it back.
        if (event.type === 'session.status_idle') {
          inputSinceLastResponse = false;
          compactionsInARow = 0;
        }
        // A turn that went idle on its own (a refusal, a spent budget) is not graded either.
        if (event.type === 'session.status_idle' && outcome && event.stop_reason.type !== 'end_turn') outcome.awaitingEvaluation = false;
    }
    if (isInput(event) && !abandoned.has(answeredCall(event) ?? '')) {
      inputSinceLastResponse = true;
      interrupted = false;
    }
  }
  const openToolUses = [...uses.values()].map((use) => (confirmed.has(use.id) ? { ...use, awaitingConfirmation: false } : use));
  return {
    last: log.at(-1)?.sequence ?? 0,
    lastStatus,
    openRequestStartId,
    inputSinceLastResponse,
    interrupted,
    openToolUses,
    outcome,
    compactionsInARow,
    workerEverWanted,
  };
}

/** The tool call an answer (a result or a confirmation) names, if the event is one. */
export function answeredCall(event: SessionEvent): string | undefined {
  if (event.type === 'user.tool_result' || event.type === 'user.tool_confirmation') return event.tool_use_id;
  if (event.type === 'user.custom_tool_result') return event.custom_tool_use_id;
  if (event.type === 'agent.mcp_tool_result') return event.mcp_tool_use_id;
  return undefined;
}
