import type { BusClient } from '@shared/bus/bus-client';
import type { CallContext } from '@shared/bus/call-context';
import type { Logger } from '@shared/log/logger';
import type { PreviewedEventType } from '@shared/schema/session-preview';
import type { SessionLogFollower } from '@shared/bus/session-log-follower';
import { FollowedLog, type FollowSessionEventsReply } from './followed-log';
import type { SessionAppendFeed, SessionPreviewFeed } from './session-feeds';
import type { StreamSlots } from './stream-slots';
import { StreamPreviews } from './stream-previews';

export interface EventStreamOptions {
  /** How often an idle stream sends a comment (keeps proxies and the client from timing out) and re-reads the log's end. */
  keepAliveMs: number;
}

export interface EventStreamDeps {
  bus: BusClient;
  follower: SessionLogFollower;
  /** The runtime's previews of events being produced, for streams that ask (`event_deltas`). */
  previews: SessionPreviewFeed;
  /** What each append added to the session's log, heard without asking (most of a stream's events). */
  appends: SessionAppendFeed;
  slots: StreamSlots;
  logger: Logger;
  options: EventStreamOptions;
}

/**
 * Opens a session's event stream (Server-Sent Events). Listens for the session's notices first,
 * then reads the log from the resume point (after the client's `Last-Event-ID`; without one, the
 * log's end: only what comes next), so nothing committed after the read is missed: every event
 * is delivered by sequence after the last one delivered, and a notice only says how far the log
 * has grown. Most events come whole on the live feed of appends, published after each commit
 * before its notice; what continues the delivered sequence is sent without a read, and anything
 * else (a feed message lost, too large, or out of step) is read from the log when a notice or
 * the keep-alive says the log holds more. So the stream is in the log's order, with no gap and
 * no duplicate, whatever replica wrote an event; a lost notice costs at most one keep-alive
 * interval, never an event. One connection holds at most one read's events and one number (the
 * log's known end).
 *
 * With `previewTypes` (the client's `event_deltas`), previews of those events being produced
 * come between the log's events (stream-previews.ts).
 *
 * Errors before the first byte (missing session, unknown Last-Event-ID, too many streams) are
 * ordinary error responses. The stream ends when the client goes, when the session is deleted
 * (after a `session.deleted` event) or when the gateway stops.
 */
export async function openEventStream(
  deps: EventStreamDeps,
  call: CallContext,
  sessionId: string,
  lastEventId: string | null,
  connection: AbortSignal | undefined,
  previewTypes: ReadonlySet<PreviewedEventType> = new Set(),
): Promise<Response> {
  const release = deps.slots.acquire(call);
  const log = new FollowedLog(deps, call, sessionId, previewTypes.size > 0 ? new StreamPreviews(previewTypes) : undefined);
  const stopNotices = deps.follower.listen(sessionId, (notice) => log.heard(notice));
  const stopAppends = deps.appends.listen(sessionId, (appended) => log.appended(appended));
  const stopPreviews = previewTypes.size > 0 ? deps.previews.listen(sessionId, (preview) => log.previewed(preview)) : () => undefined;
  const stopListening = () => {
    stopNotices();
    stopAppends();
    stopPreviews();
  };
  let first: FollowSessionEventsReply;
  try {
    first = await log.read(lastEventId === null ? null : { event_id: lastEventId });
  } catch (err) {
    stopListening();
    release();
    throw err;
  }
  log.start(first);

  const timer = setInterval(() => log.keepAlive(), deps.options.keepAliveMs);
  const end = () => {
    if (!log.end()) return;
    clearInterval(timer);
    stopListening();
    release();
    removeStop();
    connection?.removeEventListener('abort', end);
  };
  const removeStop = deps.follower.onStop(end);
  connection?.addEventListener('abort', end);
  log.onEnd = end;

  const stream = new ReadableStream<Uint8Array>({ pull: (controller) => log.pull(controller), cancel: end }, { highWaterMark: 0 });
  return new Response(stream, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      // Proxies that buffer (nginx) would hold events back.
      'x-accel-buffering': 'no',
    },
  });
}

