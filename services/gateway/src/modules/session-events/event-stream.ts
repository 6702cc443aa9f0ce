import type { BusClient } from '@shared/bus/bus-client';
import type { CallContext } from '@shared/bus/call-context';
import { sessionEventSubjects } from '@shared/bus/subjects/session-events';
import { ApiError } from '@shared/errors/api-error';
import type { Logger } from '@shared/log/logger';
import type { SessionEvent } from '@shared/schema/session-event';
import type { SessionLogFollower } from './session-log-follower';

/** Events read from the log per bus request; with the service's page byte budget, what one connection holds at most. */
const READ_LIMIT = 100;
/** Failed log reads in a row (the deployments service unreachable) before a stream ends with an `error` event. */
const MAX_FAILED_READS = 3;

export interface EventStreamOptions {
  /** How often an idle stream sends a comment (keeps proxies and the client from timing out) and re-reads the log's end. */
  keepAliveMs: number;
}

/**
 * At most `limit` open streams per tenant (organization + workspace) on one gateway replica:
 * each holds a connection, a subscription entry and a periodic log read, so one tenant cannot
 * take a replica's sockets from the others. Refused with 429 naming the limit.
 */
export class StreamSlots {
  private readonly open = new Map<string, number>();
  constructor(private readonly limit: number) {}

  acquire(call: CallContext): () => void {
    const key = `${call.tenant?.organization_id}/${call.tenant?.workspace_id}`;
    const count = this.open.get(key) ?? 0;
    if (count >= this.limit) {
      throw new ApiError(
        'rate_limit_error',
        `session event streams: at most ${this.limit} open at once per workspace on one gateway replica; close one first`,
      );
    }
    this.open.set(key, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(key) ?? 1) - 1;
      if (left === 0) this.open.delete(key);
      else this.open.set(key, left);
    };
  }
}

export interface EventStreamDeps {
  bus: BusClient;
  follower: SessionLogFollower;
  slots: StreamSlots;
  logger: Logger;
  options: EventStreamOptions;
}

const encoder = new TextEncoder();
const KEEP_ALIVE = encoder.encode(': keep-alive\n\n');

/** One event in SSE framing: its type as the event name, its id as the SSE id (what `Last-Event-ID` resumes from). */
const frame = (event: SessionEvent) => `event: ${event.type}\nid: ${event.id}\ndata: ${JSON.stringify(event)}\n\n`;

/**
 * Opens a session's event stream (Server-Sent Events). Listens for the session's notices first,
 * then reads the log from the resume point (after the client's `Last-Event-ID`; without one, the
 * log's end: only what comes next), so nothing committed after the read is missed: every event
 * is read from the log by sequence after the last one delivered, and a notice only says how far
 * the log has grown. So the stream is in the log's order, with no gap and no duplicate, whatever
 * replica wrote an event; a lost notice costs at most one keep-alive interval, never an event.
 * One connection holds at most one read's events and one number (the log's known end).
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
): Promise<Response> {
  const release = deps.slots.acquire(call);
  let known = 0;
  let deleted: { event_id: string; processed_at: string } | undefined;
  let wake: (() => void) | undefined;
  let notices = 0;
  const stopListening = deps.follower.listen(sessionId, (notice) => {
    notices += 1;
    if (notice.kind === 'appended') known = Math.max(known, notice.sequence);
    else deleted = notice;
    wake?.();
  });
  const read = (after: { sequence: number } | { event_id: string } | null) =>
    deps.bus.call(sessionEventSubjects.follow, call, { session_id: sessionId, after, limit: READ_LIMIT });

  let first;
  try {
    first = await read(lastEventId === null ? null : { event_id: lastEventId });
  } catch (err) {
    stopListening();
    release();
    throw err;
  }
  let delivered = first.from;
  known = Math.max(known, first.last);
  let pending = first.events;
  let tick = false;
  let stalled = false;
  let failures = 0;
  let ended = false;

  const timer = setInterval(() => {
    tick = true;
    wake?.();
  }, deps.options.keepAliveMs);
  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(timer);
    stopListening();
    release();
    removeStop();
    connection?.removeEventListener('abort', end);
    wake?.();
  };
  const removeStop = deps.follower.onStop(end);
  connection?.addEventListener('abort', end);

  const stream = new ReadableStream<Uint8Array>(
    {
      pull: async (controller) => {
        for (;;) {
          if (ended) return controller.close();
          // Delivered strictly in sequence: anything at or before the last delivered is dropped.
          const next = pending.filter((e) => e.sequence > delivered);
          pending = [];
          if (next.length > 0) {
            if (next[0].sequence !== delivered + 1) {
              // The log is read after `delivered`, so this cannot happen; if it did, ending is better than a gap.
              deps.logger.error('session event stream: gap in the log read', { session_id: sessionId, delivered, got: next[0].sequence });
              end();
              return controller.close();
            }
            delivered = next[next.length - 1].sequence;
            return controller.enqueue(encoder.encode(next.map((e) => frame(e.event as SessionEvent)).join('')));
          }
          if (deleted) {
            const event = { id: deleted.event_id, type: 'session.deleted', processed_at: deleted.processed_at } as SessionEvent;
            controller.enqueue(encoder.encode(frame(event)));
            end();
            return controller.close();
          }
          if ((known > delivered && !stalled) || tick) {
            const polling = tick;
            tick = false;
            const heardBefore = notices;
            try {
              const reply = await read({ sequence: delivered });
              failures = 0;
              stalled = false;
              pending = reply.events;
              // The log is the truth: a notice beyond it (none arrived during the read) is not chased again and again.
              known = reply.events.length === 0 && notices === heardBefore ? Math.max(delivered, reply.last) : Math.max(known, reply.last);
            } catch (err) {
              if (ended) return controller.close();
              if (err instanceof ApiError && err.type === 'not_found_error') {
                // Deleted meanwhile: its notice (with the session.deleted event) is on its way; if lost, end here.
                if (!deleted) {
                  end();
                  return controller.close();
                }
                continue;
              }
              failures += 1;
              stalled = true;
              deps.logger.warn('session event stream: reading the log failed', { session_id: sessionId, failures, error: err });
              if (failures >= MAX_FAILED_READS) {
                const error = err instanceof ApiError ? err : new ApiError('api_error');
                const body = { type: 'error', error: { type: error.type, message: error.message }, request_id: call.request_id };
                controller.enqueue(encoder.encode(`event: error\ndata: ${JSON.stringify(body)}\n\n`));
                end();
                return controller.close();
              }
            }
            if (polling && pending.length === 0) return controller.enqueue(KEEP_ALIVE);
            continue;
          }
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
        }
      },
      cancel: end,
    },
    { highWaterMark: 0 },
  );
  return new Response(stream, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      // Proxies that buffer (nginx) would hold events back.
      'x-accel-buffering': 'no',
    },
  });
}
