import {
  FollowSessionEventsReply,
  FollowSessionEventsRequest,
  SendSessionEventsReply,
  SendSessionEventsRequest,
  SessionEventListReply,
  SessionEventListRequest,
} from '../../schema/session-event';
import { defineSubjects } from '../subject';

/**
 * A session's event log, kept by the deployments service with the sessions it owns. `follow`
 * is what the gateway's event stream reads the log with (after a sequence or an event id), so a
 * stream on any gateway replica sees what any deployments replica wrote, in the log's order.
 */
export const sessionEventSubjects = defineSubjects('deployments', 'sessions.events', {
  list: [SessionEventListRequest, SessionEventListReply],
  send: [SendSessionEventsRequest, SendSessionEventsReply],
  follow: [FollowSessionEventsRequest, FollowSessionEventsReply],
});
