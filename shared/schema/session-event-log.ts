import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';
import { Closed, IdOf, Nullable, StoredMetadata } from './common';
import { Budget, SystemMessageEvent, UserDefineOutcomeEvent, UserMessageEvent } from './deployment';
import { SessionAgent } from './session';
import { toolResultBlocks } from './session-event-params';

/** What a session's log holds and returns: each event's body as stored, and as listed. */

// ---------------------------------------------------------------------------------------------
// What the log holds: each event's own fields ("body", stored as JSON), then as returned, with
// its id and `processed_at` (the instant the log accepted it).

const Text = Type.String();
const StopReason = Type.Union([
  Closed({ type: Type.Literal('end_turn') }),
  Closed({ type: Type.Literal('requires_action'), event_ids: Type.Array(Text) }),
  Closed({ type: Type.Literal('retries_exhausted') }),
  Closed({ type: Type.Literal('budget_reached') }),
  Closed({ type: Type.Literal('refusal') }),
]);
export type StopReason = Static<typeof StopReason>;
const RefusalStopDetails = Closed({
  type: Type.Literal('refusal'),
  category: Nullable(Type.Union(['cyber', 'bio', 'frontier_llm', 'reasoning_extraction', 'general_harms'].map((c) => Type.Literal(c)))),
  explanation: Nullable(Text),
});

/** How the agent's permission policy judged a tool use (SDK `evaluated_permission`). */
const EvaluatedPermission = Type.Union([Type.Literal('allow'), Type.Literal('ask'), Type.Literal('deny')]);

/** SDK BetaManagedAgentsSpanModelUsage: one model request's tokens. */
const ModelUsage = Closed({
  cache_creation_input_tokens: Type.Integer({ minimum: 0 }),
  cache_read_input_tokens: Type.Integer({ minimum: 0 }),
  input_tokens: Type.Integer({ minimum: 0 }),
  output_tokens: Type.Integer({ minimum: 0 }),
  speed: Type.Optional(Nullable(Type.Union([Type.Literal('standard'), Type.Literal('fast')]))),
});

/**
 * A tool call of the agent's that its permission policy judged (a built-in or an MCP server's
 * tool): the tool's name, what names its server (`server`, none for a built-in), its input, the
 * verdict and the thread.
 */
const permissionedToolUse = <T extends string, S extends TProperties>(type: T, server: S) =>
  Closed({
    type: Type.Literal(type),
    name: Text,
    ...server,
    input: Type.Record(Type.String(), Type.Unknown()),
    evaluated_permission: Type.Optional(EvaluatedPermission),
    session_thread_id: Type.Optional(Nullable(Text)),
  });

/** A session's repository that could not be cloned (the sandbox worker says which). */
export const REPOSITORY_ERROR_TYPES = [
  'repository_authentication_error',
  'repository_not_found_error',
  'repository_forbidden_error',
  'repository_checkout_error',
  'repository_clone_error',
] as const;
/**
 * The session error kinds the runtime reports (SDK: each with `message` and `retry_status`; the
 * MCP ones also name the server, `mcp_server_name`; the repository ones the repository).
 */
export const SESSION_ERROR_TYPES = [
  'unknown_error',
  'model_overloaded_error',
  'model_rate_limited_error',
  'model_request_failed_error',
  'mcp_connection_failed_error',
  'mcp_authentication_failed_error',
  'credential_host_unreachable_error',
  'compaction_limit_reached_error',
  ...REPOSITORY_ERROR_TYPES,
] as const;
const RetryStatus = Type.Union([
  Closed({ type: Type.Literal('retrying') }),
  Closed({ type: Type.Literal('exhausted') }),
  Closed({ type: Type.Literal('terminal') }),
]);

/**
 * An outcome evaluation's verdict (SDK span.outcome_evaluation_end `result`): `needs_revision`
 * starts another cycle; the others end the outcome.
 */
export const OUTCOME_VERDICTS = ['satisfied', 'needs_revision', 'max_iterations_reached', 'failed', 'interrupted'] as const;
export type OutcomeVerdict = (typeof OUTCOME_VERDICTS)[number];

/** The bodies of the kinds the log holds: the client's (sent), the agent's and the session's (the runtime's). */
const bodies = {
  userMessage: UserMessageEvent,
  userInterrupt: Closed({ type: Type.Literal('user.interrupt'), session_thread_id: Type.Optional(Nullable(Text)) }),
  userToolConfirmation: Closed({
    type: Type.Literal('user.tool_confirmation'),
    tool_use_id: Text,
    result: Type.Union([Type.Literal('allow'), Type.Literal('deny')]),
    deny_message: Type.Optional(Nullable(Text)),
  }),
  userCustomToolResult: Closed({
    type: Type.Literal('user.custom_tool_result'),
    custom_tool_use_id: Text,
    content: Type.Optional(toolResultBlocks(false)),
    is_error: Type.Optional(Nullable(Type.Boolean())),
  }),
  /** The initial-event form (max_iterations resolved) plus the outcome's id, given when it is logged. */
  userDefineOutcome: Closed({ ...UserDefineOutcomeEvent.properties, outcome_id: IdOf('outcome') }),
  userToolResult: Closed({
    type: Type.Literal('user.tool_result'),
    tool_use_id: Text,
    content: Type.Optional(toolResultBlocks(false)),
    is_error: Type.Optional(Nullable(Type.Boolean())),
  }),
  systemMessage: SystemMessageEvent,
  // What tool results and confirmations answer: written by the runtime from the model's tool_use blocks.
  agentToolUse: permissionedToolUse('agent.tool_use', {}),
  agentMcpToolUse: permissionedToolUse('agent.mcp_tool_use', { mcp_server_name: Text }),
  /** The MCP server's answer to an agent.mcp_tool_use, which the runtime called (SDK BetaManagedAgentsAgentMCPToolResultEvent). */
  agentMcpToolResult: Closed({
    type: Type.Literal('agent.mcp_tool_result'),
    mcp_tool_use_id: Text,
    content: Type.Optional(toolResultBlocks(false)),
    is_error: Type.Optional(Nullable(Type.Boolean())),
  }),
  agentCustomToolUse: Closed({
    type: Type.Literal('agent.custom_tool_use'),
    name: Text,
    input: Type.Record(Type.String(), Type.Unknown()),
    session_thread_id: Type.Optional(Nullable(Text)),
  }),
  agentMessage: Closed({
    type: Type.Literal('agent.message'),
    content: Type.Array(Type.Union([Closed({ type: Type.Literal('text'), text: Text }), Closed({ type: Type.Literal('redacted') })])),
  }),
  agentThinking: Closed({ type: Type.Literal('agent.thinking') }),
  /** The conversation was summarized to fit the model's context (the summary is the runtime's own: docs/decisions.md). */
  agentThreadContextCompacted: Closed({ type: Type.Literal('agent.thread_context_compacted') }),
  spanModelRequestStart: Closed({ type: Type.Literal('span.model_request_start') }),
  spanModelRequestEnd: Closed({
    type: Type.Literal('span.model_request_end'),
    is_error: Nullable(Type.Boolean()),
    model_request_start_id: Text,
    model_usage: ModelUsage,
  }),
  sessionError: Closed({
    type: Type.Literal('session.error'),
    error: Closed({
      type: Type.Union(SESSION_ERROR_TYPES.map((t) => Type.Literal(t))),
      message: Text,
      retry_status: RetryStatus,
      /** The repository errors' (SDK): the repository that could not be cloned. */
      repository_url: Type.Optional(Nullable(Text)),
      /** credential_host_unreachable_error's (SDK): the environment_variable credential concerned. */
      credential_id: Type.Optional(Text),
      mcp_server_name: Type.Optional(Text),
    }),
  }),
  // The evaluate-and-revise loop of a user.define_outcome (written by the runtime): one start and
  // one end per evaluation cycle, `ongoing` while a grader request is still out.
  spanOutcomeEvaluationStart: Closed({
    type: Type.Literal('span.outcome_evaluation_start'),
    outcome_id: Text,
    iteration: Type.Integer({ minimum: 0 }),
  }),
  spanOutcomeEvaluationOngoing: Closed({
    type: Type.Literal('span.outcome_evaluation_ongoing'),
    outcome_id: Text,
    iteration: Type.Integer({ minimum: 0 }),
  }),
  spanOutcomeEvaluationEnd: Closed({
    type: Type.Literal('span.outcome_evaluation_end'),
    outcome_id: Text,
    iteration: Type.Integer({ minimum: 0 }),
    outcome_evaluation_start_id: Text,
    result: Type.Union(OUTCOME_VERDICTS.map((v) => Type.Literal(v))),
    explanation: Text,
    usage: ModelUsage,
  }),
  statusRunning: Closed({ type: Type.Literal('session.status_running') }),
  statusIdle: Closed({ type: Type.Literal('session.status_idle'), stop_reason: StopReason, stop_details: Nullable(RefusalStopDetails) }),
  statusRescheduled: Closed({ type: Type.Literal('session.status_rescheduled') }),
  statusTerminated: Closed({ type: Type.Literal('session.status_terminated') }),
  /**
   * An update of the session that changed something (SDK BetaManagedAgentsSessionUpdatedEvent):
   * only what changed; `agent` is the whole snapshot after a tools / MCP servers change; `metadata`
   * the whole bag, absent when the update left it empty. Appended by the sessions' update handler.
   */
  sessionUpdated: Closed({
    type: Type.Literal('session.updated'),
    agent: Type.Optional(Nullable(SessionAgent)),
    budget: Type.Optional(Nullable(Budget)),
    metadata: Type.Optional(StoredMetadata),
    title: Type.Optional(Nullable(Type.String())),
  }),
  /** Given to open streams only (the log goes with the session): see sessionLogEvents.deleted. */
  deleted: Closed({ type: Type.Literal('session.deleted') }),
};

/**
 * An agent.message or agent.thinking the runtime previewed while the model produced it
 * (shared/schema/session-preview.ts) is appended with the id its previews announced, so a stream
 * can match the buffered event to them; the log stores the id as the event's, not in its body.
 */
const previewed = <P extends TProperties>(body: TObject<P>) => Closed({ ...body.properties, id: Type.Optional(IdOf('sessionEvent')) });

/**
 * The kinds the runtime appends (the agent's and the session's), never a client; and the results
 * of the calls an interrupt stopped, which the runtime answers for the worker it stopped (an
 * unanswered call would be run again by the session's next worker, and the model needs a result
 * for every call).
 */
export const RuntimeEventBody = Type.Union([
  bodies.userToolResult,
  bodies.userCustomToolResult,
  previewed(bodies.agentMessage),
  previewed(bodies.agentThinking),
  bodies.agentThreadContextCompacted,
  bodies.agentToolUse,
  bodies.agentMcpToolUse,
  bodies.agentMcpToolResult,
  bodies.agentCustomToolUse,
  bodies.spanModelRequestStart,
  bodies.spanModelRequestEnd,
  bodies.spanOutcomeEvaluationStart,
  bodies.spanOutcomeEvaluationOngoing,
  bodies.spanOutcomeEvaluationEnd,
  bodies.sessionError,
  bodies.statusRunning,
  bodies.statusIdle,
  bodies.statusRescheduled,
  bodies.statusTerminated,
]);
export type RuntimeEventBody = Static<typeof RuntimeEventBody>;

/** An event's own fields as the log stores them (no id, no processed_at). */
export const SessionEventBody = Type.Union(Object.values(bodies));
export type SessionEventBody = Static<typeof SessionEventBody>;
export type SessionEventType = SessionEventBody['type'];

/**
 * A body as it is appended: a define_outcome's `outcome_id` is given by the log, and so is every
 * event's id, but for one the runtime previewed under an id of its own (RuntimeEventBody).
 */
export type NewSessionEventBody = (
  | Exclude<SessionEventBody, { type: 'user.define_outcome' }>
  | Omit<Extract<SessionEventBody, { type: 'user.define_outcome' }>, 'outcome_id'>
) & { id?: string };

const logged = <P extends TProperties>(body: TObject<P>) => Closed({ id: IdOf('sessionEvent'), ...body.properties, processed_at: Type.String() });

/** An event as returned by list, send and stream (a member of the SDK's BetaManagedAgentsSessionEvent). */
export const SessionEvent = Type.Union(Object.values(bodies).map((body) => logged(body as TObject)));
export type SessionEvent = { id: string; processed_at: string } & SessionEventBody;

/** The kinds a status event moves the session to. */
export const STATUS_EVENT_TYPES = {
  'session.status_running': 'running',
  'session.status_idle': 'idle',
  'session.status_rescheduled': 'rescheduling',
  'session.status_terminated': 'terminated',
} as const;
