import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';
import { defineEvent } from '../bus/event';
import { Closed, CreatedAtBounds, IdOf, IdParam, Nullable, PagePosition, StoredMetadata } from './common';
import {
  Budget,
  INITIAL_EVENTS_MAX_BYTES,
  SystemMessageEvent,
  SystemMessageEventParams,
  ToolResultContentParts,
  UserDefineOutcomeEvent,
  UserDefineOutcomeEventParams,
  UserMessageEvent,
  UserMessageEventParams,
} from './deployment';
import { SessionAgent } from './session';

/**
 * A session's event log: what a client sends (`POST /v1/sessions/{id}/events`), what the log
 * holds and returns (list, stream), and the bus notification that a log grew. Shapes follow the
 * SDK's `resources/beta/sessions/events.d.ts`. The kinds a deployment's initial events share
 * (user.message, user.define_outcome, system.message) are the schemas of shared/schema/deployment.ts:
 * one schema for one event kind, wherever it is sent.
 */

// ---------------------------------------------------------------------------------------------
// Limits (named in the errors the validator writes).

/** Events in one send. */
export const SEND_EVENTS_MAX = 50;
/** A send's `events` as UTF-8 JSON: the bound the deployment's initial events have. */
export const SEND_EVENTS_MAX_BYTES = INITIAL_EVENTS_MAX_BYTES;
/** Content blocks in one tool result. */
const TOOL_RESULT_BLOCKS_MAX = 100;

// ---------------------------------------------------------------------------------------------
// What a client sends: the SDK's BetaManagedAgentsEventParams, bounded.

/** An event id another event refers to (a tool use); its kind and session are checked by the service. */
const EventReference = IdOf('sessionEvent');
const ThreadId = Type.String({ minLength: 1, maxLength: 128 });

function toolResultBlocks(bounded: boolean) {
  const parts = bounded ? ToolResultContentParts.request : ToolResultContentParts.response;
  const limit = <O extends Record<string, unknown>>(options: O) => (bounded ? options : {});
  const searchResult = Closed({
    type: Type.Literal('search_result'),
    source: Type.String({ minLength: 1, ...limit({ maxLength: 2048 }) }),
    title: Type.String(limit({ maxLength: 1024 })),
    content: Type.Array(parts.text, limit({ maxItems: TOOL_RESULT_BLOCKS_MAX })),
    citations: Closed({ enabled: Type.Boolean() }),
  });
  return Type.Array(
    Type.Union([parts.text, parts.image, parts.document, searchResult], {
      description: 'must be a text, image, document or search_result block',
    }),
    limit({ maxItems: TOOL_RESULT_BLOCKS_MAX }),
  );
}

export const UserInterruptEventParams = Closed({
  type: Type.Literal('user.interrupt'),
  session_thread_id: Type.Optional(Nullable(ThreadId)),
});
export const UserToolConfirmationEventParams = Closed({
  type: Type.Literal('user.tool_confirmation'),
  tool_use_id: EventReference,
  result: Type.Union([Type.Literal('allow'), Type.Literal('deny')], { description: "must be 'allow' or 'deny'" }),
  deny_message: Type.Optional(Nullable(Type.String({ maxLength: 10000 }))),
});
export const UserCustomToolResultEventParams = Closed({
  type: Type.Literal('user.custom_tool_result'),
  custom_tool_use_id: EventReference,
  content: Type.Optional(toolResultBlocks(true)),
  is_error: Type.Optional(Nullable(Type.Boolean())),
});
export const UserToolResultEventParams = Closed({
  type: Type.Literal('user.tool_result'),
  tool_use_id: EventReference,
  content: Type.Optional(toolResultBlocks(true)),
  is_error: Type.Optional(Nullable(Type.Boolean())),
});

export const SessionEventParams = Type.Union(
  [
    UserMessageEventParams,
    UserInterruptEventParams,
    UserToolConfirmationEventParams,
    UserCustomToolResultEventParams,
    UserDefineOutcomeEventParams,
    UserToolResultEventParams,
    SystemMessageEventParams,
  ],
  {
    description:
      'must be a user.message, user.interrupt, user.tool_confirmation, user.custom_tool_result, user.define_outcome, user.tool_result or system.message event',
  },
);
export type SessionEventParams = Static<typeof SessionEventParams>;

/** `POST /v1/sessions/{id}/events` body (the SDK's EventSendParams). */
export const SendSessionEventsBody = Closed({
  events: Type.Array(SessionEventParams, { minItems: 1, maxItems: SEND_EVENTS_MAX, maxBytes: SEND_EVENTS_MAX_BYTES }),
});

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
  category: Nullable(
    Type.Union(['cyber', 'bio', 'frontier_llm', 'reasoning_extraction', 'general_harms'].map((c) => Type.Literal(c))),
  ),
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

/** The session error kinds the runtime reports (SDK: each with `message` and `retry_status`). */
export const SESSION_ERROR_TYPES = ['unknown_error', 'model_overloaded_error', 'model_rate_limited_error', 'model_request_failed_error'] as const;
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
  agentToolUse: Closed({
    type: Type.Literal('agent.tool_use'),
    name: Text,
    input: Type.Record(Type.String(), Type.Unknown()),
    evaluated_permission: Type.Optional(EvaluatedPermission),
    session_thread_id: Type.Optional(Nullable(Text)),
  }),
  agentMcpToolUse: Closed({
    type: Type.Literal('agent.mcp_tool_use'),
    name: Text,
    mcp_server_name: Text,
    input: Type.Record(Type.String(), Type.Unknown()),
    evaluated_permission: Type.Optional(EvaluatedPermission),
    session_thread_id: Type.Optional(Nullable(Text)),
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
    }),
  }),
  // The evaluate-and-revise loop of a user.define_outcome (written by the runtime): one start and
  // one end per evaluation cycle, `ongoing` while a grader request is still out.
  spanOutcomeEvaluationStart: Closed({ type: Type.Literal('span.outcome_evaluation_start'), outcome_id: Text, iteration: Type.Integer({ minimum: 0 }) }),
  spanOutcomeEvaluationOngoing: Closed({ type: Type.Literal('span.outcome_evaluation_ongoing'), outcome_id: Text, iteration: Type.Integer({ minimum: 0 }) }),
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
 * The kinds the runtime appends (the agent's and the session's), never a client; and the results
 * of the calls an interrupt stopped, which the runtime answers for the worker it stopped (an
 * unanswered call would be run again by the session's next worker, and the model needs a result
 * for every call).
 */
export const RuntimeEventBody = Type.Union([
  bodies.userToolResult,
  bodies.userCustomToolResult,
  bodies.agentMessage,
  bodies.agentThinking,
  bodies.agentToolUse,
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

/** A body as it is appended: a define_outcome's `outcome_id` is given by the log. */
export type NewSessionEventBody =
  | Exclude<SessionEventBody, { type: 'user.define_outcome' }>
  | Omit<Extract<SessionEventBody, { type: 'user.define_outcome' }>, 'outcome_id'>;

const logged = <P extends TProperties>(body: TObject<P>) =>
  Closed({ id: IdOf('sessionEvent'), ...body.properties, processed_at: Type.String() });

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

// ---------------------------------------------------------------------------------------------
// Bus requests and replies (shared/bus/subjects/session-events.ts).

/** Every value of the SDK's BetaManagedAgentsSessionEventType the `types` filter accepts. */
export const SESSION_EVENT_TYPES = [
  'user.message', 'user.interrupt', 'user.tool_confirmation', 'user.custom_tool_result', 'agent.custom_tool_use',
  'agent.message', 'agent.thinking', 'agent.mcp_tool_use', 'agent.mcp_tool_result', 'agent.tool_use', 'agent.tool_result',
  'agent.thread_message_received', 'agent.thread_message_sent', 'agent.thread_context_compacted', 'session.error',
  'session.status_rescheduled', 'session.status_running', 'session.status_idle', 'session.status_terminated',
  'session.thread_created', 'span.outcome_evaluation_start', 'span.outcome_evaluation_end', 'span.model_request_start',
  'span.model_request_end', 'span.outcome_evaluation_ongoing', 'user.define_outcome', 'session.thread_status_running',
  'session.thread_status_idle', 'session.thread_status_terminated', 'user.tool_result', 'session.thread_status_rescheduled',
  'session.updated', 'system.message', 'session.usage', 'workflow_run.created', 'workflow_run.status_running',
  'workflow_run.status_idle', 'workflow_run.status_ended', 'workflow_run.error', 'workflow_run.phase_started',
  'workflow_run.phase_ended',
] as const;
const ListedType = Type.Union(SESSION_EVENT_TYPES.map((t) => Type.Literal(t)));

export const SessionEventListOrder = Type.Union([Type.Literal('asc'), Type.Literal('desc')]);
export type SessionEventListOrder = Static<typeof SessionEventListOrder>;

/** The list's filters: the session (a cursor is bound to it), order, types, processed_at bounds. */
export const SessionEventListFilters = Closed({
  session_id: IdParam,
  order: SessionEventListOrder,
  types: Type.Optional(Type.Array(ListedType, { minItems: 1, maxItems: SESSION_EVENT_TYPES.length })),
  ...CreatedAtBounds,
});
export type SessionEventListFilters = Static<typeof SessionEventListFilters>;

const Position = Type.Union([PagePosition, Type.Null()]);
/** Pages both ways: a position is an event (its processed_at and id); the log's order is its sequence. */
export const SessionEventListRequest = Closed({
  filters: SessionEventListFilters,
  limit: Type.Integer({ minimum: 1, maximum: 1000 }),
  after: Position,
  before: Position,
});
export const SessionEventListReply = Closed({ data: Type.Array(SessionEvent), next: Position, prev: Position });

export const SendSessionEventsRequest = Closed({ session_id: IdParam, events: SendSessionEventsBody.properties.events });
/** The SDK's BetaManagedAgentsSendSessionEvents: the events as logged. */
export const SendSessionEventsReply = Closed({ data: Type.Array(SessionEvent) });

/**
 * What a stream reads from the log: the events after a point, each with its sequence (the log's
 * order, what the stream follows), and the log's last sequence at the time of the read. The
 * point is a sequence, an event id (a client's `Last-Event-ID`), or null: the log's end.
 */
export const FollowSessionEventsRequest = Closed({
  session_id: IdParam,
  after: Type.Union([
    Closed({ sequence: Type.Integer({ minimum: 0 }) }),
    Closed({ event_id: Type.String({ minLength: 1, maxLength: 128 }) }),
    Type.Null(),
  ]),
  limit: Type.Integer({ minimum: 1, maximum: 1000 }),
});
export const FollowSessionEventsReply = Closed({
  events: Type.Array(Closed({ sequence: Type.Integer({ minimum: 1 }), event: SessionEvent })),
  /** The sequence the read started after (what `after` named); the events follow it with no gap. */
  from: Type.Integer({ minimum: 0 }),
  /** The log's last sequence when it was read (0: empty). */
  last: Type.Integer({ minimum: 0 }),
});

/** What a model response added to the session's usage: its tokens and their list cost (shared/usage/list-cost.ts units). */
export const UsageDelta = Closed({
  input_tokens: Type.Integer({ minimum: 0 }),
  output_tokens: Type.Integer({ minimum: 0 }),
  cache_read_input_tokens: Type.Integer({ minimum: 0 }),
  cache_creation_5m_input_tokens: Type.Integer({ minimum: 0 }),
  cache_creation_1h_input_tokens: Type.Integer({ minimum: 0 }),
  /** In units of 1e-8 cent, as a decimal integer string (BigInt on both sides). */
  list_cost_units: Type.String({ pattern: '^(0|[1-9][0-9]{0,30})$' }),
});
export type UsageDelta = Static<typeof UsageDelta>;

/**
 * The runtime's append: accepted only while the log still ends at `after_sequence` (what the
 * runtime read before deciding), so a replica that lost its lease, or a decision made on a log
 * that has since grown, writes nothing (409); the usage is added in the same transaction.
 */
export const AppendSessionEventsRequest = Closed({
  session_id: IdParam,
  after_sequence: Type.Integer({ minimum: 0 }),
  events: Type.Array(RuntimeEventBody, { minItems: 1, maxItems: 200 }),
  usage: Type.Optional(UsageDelta),
});
export const AppendSessionEventsReply = FollowSessionEventsReply;

// ---------------------------------------------------------------------------------------------
// Notifications (the `sessions` stream, published through the outbox after the commit).

/**
 * A session's log grew up to `sequence`. Small and lossy-tolerant: a stream that sees one reads
 * the log after what it delivered, so a lost or late notification costs latency, never an event.
 */
export const SessionLogAppended = Closed({ session_id: IdParam, sequence: Type.Integer({ minimum: 1 }) });
/** A session was deleted: open streams send this `session.deleted` event and end. */
export const SessionLogDeleted = Closed({ session_id: IdParam, event_id: IdParam, processed_at: Type.String({ maxLength: 40 }) });

export const sessionLogEvents = {
  appended: defineEvent('sessions', 'sessions.log_appended', SessionLogAppended),
  deleted: defineEvent('sessions', 'sessions.log_deleted', SessionLogDeleted),
};
