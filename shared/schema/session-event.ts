/**
 * A session's event log, in three files by topic, importable from here as one:
 * - session-event-params.ts: what a client sends (`POST /v1/sessions/{id}/events`), with its limits;
 * - session-event-log.ts: what the log holds and returns (list, stream), the runtime's bodies;
 * - session-event-bus.ts: the bus requests and replies about a log, and its notifications.
 * Shapes follow the SDK's `resources/beta/sessions/events.d.ts`.
 */
export * from './session-event-params';
export * from './session-event-log';
export * from './session-event-bus';
