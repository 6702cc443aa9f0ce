import type { BusClient } from '@shared/bus/bus-client';
import type { CallContext } from '@shared/bus/call-context';
import type { SessionLogNotice } from '@shared/bus/session-log-follower';
import { sessionEventSubjects } from '@shared/bus/subjects/session-events';
import { ApiError } from '@shared/errors/api-error';
import type { Logger } from '@shared/log/logger';
import type { FollowSessionEventsReply as FollowReply, SessionEvent, SessionEventsAppended } from '@shared/schema/session-event';
import type { SessionPreview } from '@shared/schema/session-preview';
import type { Static } from '@sinclair/typebox';
import type { StreamPreviews } from './stream-previews';

/** Events read from the log per bus request; with the service's page byte budget, what one connection holds at most. */
const READ_LIMIT = 100;
/** Failed log reads in a row (the deployments service unreachable) before a stream ends with an `error` event. */
const MAX_FAILED_READS = 3;
/**
 * A read refused for load (429: the tenant's queue in the deployments service is full; 503) was
 * never run and is safe to repeat: it is tried again soon (from 100 ms, doubling, jittered, at
 * most the keep-alive), not at the next notice or keep-alive, and ends the stream only after this
 * many in a row (about 25 s), since a burst of a tenant's own sessions is what fills that queue.
 */
const MAX_REFUSED_READS = 8;
const REFUSED_RETRY_BASE_MS = 100;

const encoder = new TextEncoder();
const KEEP_ALIVE = encoder.encode(': keep-alive\n\n');

/** One event in SSE framing: its type as the event name, its id as the SSE id (what `Last-Event-ID` resumes from). */
const frame = (event: SessionEvent) => `event: ${event.type}\nid: ${event.id}\ndata: ${JSON.stringify(event)}\n\n`;

/** What a stream's log needs of the gateway: the bus to read with, a logger, its keep-alive. */
export interface FollowedLogDeps {
  bus: BusClient;
  logger: Logger;
  options: { keepAliveMs: number };
}

export type FollowSessionEventsReply = Static<typeof FollowReply>;
type Events = FollowSessionEventsReply['events'];
export type ReadAfter = { sequence: number } | { event_id: string } | null;

/** One stream's place in a session's log: what it delivered, what it knows the log holds, and what it heard. */
export class FollowedLog {
  private known = 0;
  private deleted: { event_id: string; processed_at: string } | undefined;
  private wake: (() => void) | undefined;
  private notices = 0;
  private delivered = 0;
  private pending: FollowSessionEventsReply['events'] = [];
  private tick = false;
  private stalled = false;
  private failures = 0;
  private ended = false;
  /** Ends the stream with what it holds (timer, listeners, slot); set once they are taken. */
  onEnd: () => void = () => undefined;

  constructor(
    private readonly deps: FollowedLogDeps,
    private readonly call: CallContext,
    private readonly sessionId: string,
    private readonly previews: StreamPreviews | undefined,
  ) {}

  read(after: ReadAfter): Promise<FollowSessionEventsReply> {
    return this.deps.bus.call(sessionEventSubjects.follow, this.call, { session_id: this.sessionId, after, limit: READ_LIMIT });
  }

  /** A notice about the session: the log grew to a sequence, or the session was deleted. */
  heard(notice: SessionLogNotice): void {
    this.notices += 1;
    if (notice.kind === 'appended') this.known = Math.max(this.known, notice.sequence);
    else this.deleted = notice;
    this.wake?.();
  }

  /**
   * What an append added, heard on the live feed: held to be sent without a read when it
   * continues what the stream delivered and holds; else only the log's end is learnt from it, and
   * the log is read. At most one read's worth is held (a client slower than its session's log).
   */
  appended(appended: SessionEventsAppended): void {
    this.known = Math.max(this.known, appended.last);
    if (this.pending.length < READ_LIMIT) this.pending = continued(this.pending, this.delivered, appended.events);
    this.wake?.();
  }

  /** A preview of an event being produced; sent when it is one this stream asked for. */
  previewed(preview: SessionPreview): void {
    if (this.previews?.offer(preview)) this.wake?.();
  }

  /** The first read: where the stream starts and what it delivers first. */
  start(first: FollowSessionEventsReply): void {
    this.delivered = first.from;
    this.known = Math.max(this.known, first.last);
    // What the feed brought during the read is kept where it continues the read.
    this.pending = continued(first.events, first.from, this.pending);
  }

  /** The keep-alive interval passed: re-read the log's end, and send a comment if nothing came. */
  keepAlive(): void {
    this.tick = true;
    this.wake?.();
  }

  /** Marks the stream ended; false when it already was. */
  end(): boolean {
    if (this.ended) return false;
    this.ended = true;
    this.wake?.();
    return true;
  }

  private close(controller: ReadableStreamDefaultController<Uint8Array>): void {
    this.onEnd();
    controller.close();
  }

  /** Gives the stream its next piece: events, the deletion, a keep-alive or an error event; else waits for news. */
  async pull(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    for (;;) {
      if (this.ended) return controller.close();
      // Delivered strictly in sequence: anything at or before the last delivered is dropped.
      const next = this.pending.filter((e) => e.sequence > this.delivered);
      this.pending = [];
      if (next.length > 0) {
        if (next[0].sequence !== this.delivered + 1) {
          // The log is read after `delivered`, so this cannot happen; if it did, ending is better than a gap.
          this.deps.logger.error('session event stream: gap in the log read', {
            session_id: this.sessionId,
            delivered: this.delivered,
            got: next[0].sequence,
          });
          return this.close(controller);
        }
        this.delivered = next[next.length - 1].sequence;
        this.previews?.conclude(next.map((e) => e.event as SessionEvent));
        return controller.enqueue(encoder.encode(next.map((e) => frame(e.event as SessionEvent)).join('')));
      }
      if (this.deleted) {
        const event = { id: this.deleted.event_id, type: 'session.deleted', processed_at: this.deleted.processed_at } as SessionEvent;
        controller.enqueue(encoder.encode(frame(event)));
        return this.close(controller);
      }
      // Previews wait while the log is known to hold more: what it holds may conclude them.
      const previews = this.known > this.delivered && !this.stalled ? undefined : this.previews?.take();
      if (previews) return controller.enqueue(previews);
      if ((this.known > this.delivered && !this.stalled) || this.tick) {
        const polling = this.tick;
        this.tick = false;
        const outcome = await this.readOn(controller);
        if (outcome === 'done') return;
        if (outcome === 'read' && polling && this.pending.length === 0) return controller.enqueue(KEEP_ALIVE);
        continue;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }

  /**
   * Reads the log after what was delivered. 'done' when the stream was closed (ended meanwhile,
   * the session gone, or too many failed reads), 'again' to look again at once, 'read' otherwise.
   */
  private async readOn(controller: ReadableStreamDefaultController<Uint8Array>): Promise<'read' | 'again' | 'done'> {
    const heardBefore = this.notices;
    try {
      const reply = await this.read({ sequence: this.delivered });
      this.failures = 0;
      this.stalled = false;
      this.pending = continued(reply.events, this.delivered, this.pending);
      // The log is the truth: a notice beyond it (none arrived during the read) is not chased again and again.
      this.known =
        reply.events.length === 0 && this.notices === heardBefore ? Math.max(this.delivered, reply.last) : Math.max(this.known, reply.last);
      return 'read';
    } catch (err) {
      if (this.ended) {
        controller.close();
        return 'done';
      }
      if (err instanceof ApiError && err.type === 'not_found_error') {
        // Deleted meanwhile: its notice (with the session.deleted event) is on its way; if lost, end here.
        if (this.deleted) return 'again';
        this.close(controller);
        return 'done';
      }
      this.failures += 1;
      this.stalled = true;
      this.deps.logger.warn('session event stream: reading the log failed', { session_id: this.sessionId, failures: this.failures, error: err });
      const refused = err instanceof ApiError && (err.status === 429 || err.status === 503);
      if (refused && this.failures < MAX_REFUSED_READS) {
        const backoff = Math.min(this.deps.options.keepAliveMs, REFUSED_RETRY_BASE_MS * 2 ** (this.failures - 1));
        setTimeout(() => this.keepAlive(), backoff * (0.5 + Math.random() / 2));
        return 'read';
      }
      if (!refused && this.failures < MAX_FAILED_READS) return 'read';
      const error = err instanceof ApiError ? err : new ApiError('api_error');
      const body = { type: 'error', error: { type: error.type, message: error.message }, request_id: this.call.request_id };
      controller.enqueue(encoder.encode(`event: error\ndata: ${JSON.stringify(body)}\n\n`));
      this.close(controller);
      return 'done';
    }
  }
}

/**
 * `held` (the events after `delivered` a stream holds, in order, no gap), then those of
 * `incoming` that continue it; `held` alone when `incoming` would leave a gap after it (a feed
 * message missed: the log is read instead).
 */
function continued(held: Events, delivered: number, incoming: Events): Events {
  const end = held.at(-1)?.sequence ?? delivered;
  const next = incoming.filter((e) => e.sequence > end);
  return next.length > 0 && next[0]!.sequence === end + 1 ? [...held, ...next] : held;
}
