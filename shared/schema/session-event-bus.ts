import { Type, type Static } from '@sinclair/typebox';
import { defineEvent } from '../bus/event';
import { Closed, CreatedAtBounds, IdParam, PagePosition } from './common';
import { Session } from './session';
import { RuntimeEventBody, SessionEvent } from './session-event-log';
import { SendSessionEventsBody } from './session-event-params';

/**
 * A session's log over the bus: the list, send, follow and the runtime's fenced append requests
 * and replies (shared/bus/subjects/session-events.ts), and the notifications that a log grew or
 * went away. The events themselves are shared/schema/session-event.ts.
 */

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
 * `with_session` (the runtime's, at each step of a drive) adds the session as `sessions.get`
 * presents it, read in the same request as the log instead of a request of its own.
 */
export const FollowSessionEventsRequest = Closed({
  session_id: IdParam,
  after: Type.Union([
    Closed({ sequence: Type.Integer({ minimum: 0 }) }),
    Closed({ event_id: Type.String({ minLength: 1, maxLength: 128 }) }),
    Type.Null(),
  ]),
  limit: Type.Integer({ minimum: 1, maximum: 1000 }),
  with_session: Type.Optional(Type.Boolean()),
});
/** Events of a session's log with their sequences, in order. */
export const LoggedEvents = Type.Array(Closed({ sequence: Type.Integer({ minimum: 1 }), event: SessionEvent }));

/** A run of the log: what a follow read and the runtime's append both answer. */
const LogRun = {
  events: LoggedEvents,
  /** The sequence the read started after (what `after` named); the events follow it with no gap. */
  from: Type.Integer({ minimum: 0 }),
  /** The log's last sequence when it was read (0: empty). */
  last: Type.Integer({ minimum: 0 }),
};
export const FollowSessionEventsReply = Closed({
  ...LogRun,
  /** The session, read before the log, when the request asked `with_session`; absent otherwise. */
  session: Type.Optional(Session),
  /** With the session: its row's revision (SessionLogAppended.revision), what the runtime keeps it by. */
  revision: Type.Optional(Type.Integer({ minimum: 0 })),
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
  /**
   * The caller goes on driving the session from this append's reply (the runtime's drive): its
   * notice is for open streams only (the live feed), not the runtime's work queue, where the
   * driving replica would only ack it. Absent: the notice goes both ways (a worker's tool
   * result, which the drive that waits for it must hear).
   */
  caller_drives: Type.Optional(Type.Boolean()),
});
export const AppendSessionEventsReply = Closed(LogRun);

/**
 * What one append added to a session's log, as the deployments service publishes it after the
 * commit on the live feed `live.session_events.<session_id>` (shared/bus/live-feeds.ts): a follow
 * read's reply that nobody had to ask for. A stream that holds the log up to `from` delivers the
 * events without reading; one that does not (or never hears it: the feed is at most once) reads
 * the log on the notice or its keep-alive. An append too large for one message is published
 * without its events (`events` empty, `last` the log's new end): streams read it from the log.
 */
export const SessionEventsAppended = Closed({ session_id: IdParam, ...LogRun });
export type SessionEventsAppended = Static<typeof SessionEventsAppended>;

// ---------------------------------------------------------------------------------------------
// Notifications (the `sessions` stream, published through the outbox after the commit).

/** The most characters of events a `sessions.log_appended` notice carries (its `events`). */
export const NOTICE_EVENTS_MAX_CHARS = 8000;

/**
 * A session's log grew up to `sequence`. Small and lossy-tolerant: a stream that sees one reads
 * the log after what it delivered, so a lost or late notification costs latency, never an event.
 */
export const SessionLogAppended = Closed({
  session_id: IdParam,
  sequence: Type.Integer({ minimum: 1 }),
  /**
   * How many events the append added, ending at `sequence`; 0 when nothing was (the session
   * changed outside its log: an archive). Sequences are given under the session's lock, so one
   * append ends at a sequence: with this, a runtime replica tells its own appends' notices apart.
   */
  appended: Type.Optional(Type.Integer({ minimum: 0 })),
  /**
   * The session row's revision when the append was made (moved by every change of the row but
   * its log's summary): with `events`, a runtime that holds the session as of this revision and
   * the log up to the append drives on without reading either.
   */
  revision: Type.Optional(Type.Integer({ minimum: 0 })),
  /**
   * The appended events (LoggedEvents) as JSON, when that is at most NOTICE_EVENTS_MAX_CHARS
   * characters (a client's message, a tool's result); absent when larger: the runtime reads them.
   * A string, so the notice keeps a size bound whatever an event may hold.
   */
  events: Type.Optional(Type.String({ maxLength: NOTICE_EVENTS_MAX_CHARS })),
});
/** A session was deleted: open streams send this `session.deleted` event and end. */
export const SessionLogDeleted = Closed({ session_id: IdParam, event_id: IdParam, processed_at: Type.String({ maxLength: 40 }) });

export const sessionLogEvents = {
  appended: defineEvent('sessions', 'sessions.log_appended', SessionLogAppended),
  deleted: defineEvent('sessions', 'sessions.log_deleted', SessionLogDeleted),
};
