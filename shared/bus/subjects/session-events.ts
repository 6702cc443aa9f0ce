import * as sessionEvent from '../../schema/session-event';
import { defineSubjects } from '../subject';

/**
 * A session's event log, kept by the deployments service with the sessions it owns. `follow`
 * is what the gateway's event stream reads the log with (after a sequence or an event id), so a
 * stream on any gateway replica sees what any deployments replica wrote, in the log's order; the
 * runtime reads a session's history the same way, and appends the agent's side with `append`.
 */
export const sessionEventSubjects = defineSubjects('deployments', 'sessions.events', {
  list: [sessionEvent.SessionEventListRequest, sessionEvent.SessionEventListReply],
  send: [sessionEvent.SendSessionEventsRequest, sessionEvent.SendSessionEventsReply],
  follow: [sessionEvent.FollowSessionEventsRequest, sessionEvent.FollowSessionEventsReply, { callers: ['gateway', 'runtime'] }],
  /** The runtime's: the agent's events and status changes, fenced on the log's end (see sessionEvent.AppendSessionEventsRequest). */
  append: [sessionEvent.AppendSessionEventsRequest, sessionEvent.AppendSessionEventsReply, { callers: ['runtime'] }],
});
