import type { NatsConnection } from '@nats-io/transport-node';
import { liveFeedSubject } from '@shared/bus/live-feeds';
import type { AppendSessionEventsReply, SessionEventsAppended } from '@shared/schema/session-event';
import type { StoreDeps } from '@shared/service-host/store-deps';
import type { Static } from '@sinclair/typebox';
import type { AppendedToLog } from '../db/session-log';
import { presentSessionEvent } from '../domain/session-events';

/**
 * The largest append published whole on the live feed. A turn's appends are a few KB; a large
 * tool result or a long answer is published without its events (the log's new end only), and
 * the streams that hear it read them from the log (one stream's buffer stays within what one log
 * read holds).
 */
const MAX_LIVE_APPEND_BYTES = 64 * 1024;

/** Tells everyone of a committed append; returns what it added as a follow read would (the runtime's reply). */
export type AnnounceAppend = (sessionId: string, appended: AppendedToLog) => Static<typeof AppendSessionEventsReply>;

/**
 * After an append's commit: what it added, whole, on the live feed `live.session_events.<id>`
 * (shared/bus/live-feeds.ts), then its notice (when it recorded one) through the outbox relay,
 * in that order on one connection, so a gateway's stream holds the events before the notice that
 * would make it read them, and delivers them without a read (three reads a turn for each open
 * stream, before). The feed is the only word open streams get of an append without a notice (a
 * drive's own): at most once, like the notices, with the stream's keep-alive read behind both.
 * Published whether or not a stream follows the session: the server drops what nobody wants.
 */
export function appendedEventsFeed(nc: NatsConnection, prefix: string, eventsRecorded: StoreDeps['eventsRecorded']): AnnounceAppend {
  const encoder = new TextEncoder();
  return (sessionId, { rows, notice }) => {
    const events = rows.map((row) => ({ sequence: row.sequence, event: presentSessionEvent(row) }));
    const from = (rows[0]?.sequence ?? 1) - 1;
    const read = { events, from, last: rows.at(-1)?.sequence ?? from };
    if (events.length > 0) {
      const whole = encoder.encode(JSON.stringify({ session_id: sessionId, ...read } satisfies SessionEventsAppended));
      const data =
        whole.byteLength <= MAX_LIVE_APPEND_BYTES ? whole : encoder.encode(JSON.stringify({ session_id: sessionId, ...read, events: [] } satisfies SessionEventsAppended));
      try {
        nc.publish(liveFeedSubject(prefix, 'sessionEvents', sessionId), data);
      } catch {
        // A closed connection: a notice, kept in the outbox until relayed, or the streams' keep-alive reads.
      }
    }
    if (notice) eventsRecorded([notice]);
    return read;
  };
}
