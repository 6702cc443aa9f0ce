import type { NatsConnection } from '@nats-io/transport-node';
import type { EventEnvelope } from '@shared/bus/event';
import { liveFeedSubject } from '@shared/bus/live-feeds';
import type { AppendSessionEventsReply, SessionEventsAppended } from '@shared/schema/session-event';
import type { StoreDeps } from '@shared/service-host/store-deps';
import type { Static } from '@sinclair/typebox';
import type { SessionEventRow } from '../db/schema';
import { presentSessionEvent } from '../domain/session-events';

/**
 * The largest append published whole on the live feed. A turn's appends are a few KB; a large
 * tool result or a long answer is read from the log by the streams the notice wakes, as anything
 * they did not hear is (and one stream's buffer stays within what one log read holds).
 */
const MAX_LIVE_APPEND_BYTES = 64 * 1024;

/** An append once committed: its rows and the `sessions.log_appended` notice it recorded in the outbox. */
export interface CommittedAppend {
  rows: SessionEventRow[];
  notice: EventEnvelope;
}

/** Tells everyone of a committed append; returns what it added as a follow read would (the runtime's reply). */
export type AnnounceAppend = (sessionId: string, appended: CommittedAppend) => Static<typeof AppendSessionEventsReply>;

/**
 * After an append's commit: what it added, whole, on the live feed `live.session_events.<id>`
 * (shared/bus/live-feeds.ts), then its notice through the outbox relay, in that order on one
 * connection, so a gateway's stream holds the events before the notice that would make it read
 * them, and delivers them without a read (three reads a turn for each open stream, before).
 * Published whether or not a stream follows the session: the server drops what nobody wants.
 */
export function appendedEventsFeed(nc: NatsConnection, prefix: string, eventsRecorded: StoreDeps['eventsRecorded']): AnnounceAppend {
  const encoder = new TextEncoder();
  return (sessionId, { rows, notice }) => {
    const events = rows.map((row) => ({ sequence: row.sequence, event: presentSessionEvent(row) }));
    const from = (rows[0]?.sequence ?? 1) - 1;
    const read = { events, from, last: rows.at(-1)?.sequence ?? from };
    if (events.length > 0) {
      const message: SessionEventsAppended = { session_id: sessionId, ...read };
      const data = encoder.encode(JSON.stringify(message));
      try {
        if (data.byteLength <= MAX_LIVE_APPEND_BYTES) nc.publish(liveFeedSubject(prefix, 'sessionEvents', sessionId), data);
      } catch {
        // A closed connection: the notice, kept in the outbox until relayed, still makes streams read.
      }
    }
    eventsRecorded([notice]);
    return read;
  };
}
