import type { PreviewedEventType, SessionPreview } from '@shared/schema/session-preview';

/** Fragments one stream holds while its client reads slowly; beyond them previews are dropped (best effort). */
const MAX_PENDING = 1000;
/** Recently concluded events remembered per stream: enough for every preview still in flight. */
const MAX_CONCLUDED = 256;

const encoder = new TextEncoder();

/**
 * The previews one event stream forwards (`event_deltas`): only of the event types it asked for,
 * and never after their buffered event went out (its id concluded them), so a client sees a
 * preview's fragments, then the whole event, and nothing of it afterwards. SSE events without an
 * `id:` line, so `Last-Event-ID` stays the log's: a reconnect resumes after the last buffered
 * event, and previews are never replayed.
 */
export class StreamPreviews {
  private pending: SessionPreview['event'][] = [];
  private readonly concluded = new Set<string>();

  constructor(readonly types: ReadonlySet<PreviewedEventType>) {}

  /** A preview heard on the feed; false when it is not one to forward. */
  offer(preview: SessionPreview): boolean {
    if (!this.types.has(preview.previewed) || this.pending.length >= MAX_PENDING) return false;
    if (this.concluded.has(idOf(preview.event))) return false;
    this.pending.push(preview.event);
    return true;
  }

  /** The log's events about to go out: their ids conclude any preview of them. */
  conclude(events: ReadonlyArray<{ id: string; type: string }>): void {
    for (const event of events) {
      if (event.type !== 'agent.message' && event.type !== 'agent.thinking') continue;
      this.concluded.add(event.id);
      if (this.concluded.size > MAX_CONCLUDED) this.concluded.delete(this.concluded.values().next().value as string);
    }
  }

  /** What to send now, in SSE framing; undefined when nothing is pending. */
  take(): Uint8Array | undefined {
    const next = this.pending.filter((event) => !this.concluded.has(idOf(event)));
    this.pending = [];
    if (next.length === 0) return undefined;
    return encoder.encode(next.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join(''));
  }
}

const idOf = (event: SessionPreview['event']) => (event.type === 'event_start' ? event.event.id : event.event_id);
