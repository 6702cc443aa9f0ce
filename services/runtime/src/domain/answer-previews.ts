import type { MessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { PreviewedEventType, SessionPreview } from '@shared/schema/session-preview';
import { systemTimers, type Timers } from '@shared/time/timers';

/**
 * How long a text block's later fragments are gathered into one `event_delta` (docs/decisions.md,
 * issue 29, streaming): a model streams a fragment every few tokens, and a preview per fragment
 * made a fast answer cost the runtime, NATS and every gateway one message per fragment whether
 * anyone watched or not. 50 ms is under what a reader sees as a stutter (20 updates a second)
 * and bounds a block to 20 previews a second however fast the model writes. A block's first
 * fragment is never held: the first visible token comes as soon as the model's.
 */
export const PREVIEW_WINDOW_MS = 50;

/** Gathered text past this goes at once: one preview stays a small message, whatever the window holds. */
const PREVIEW_MAX_CHARS = 16_384;

/**
 * The previews of one model answer as it streams (shared/schema/session-preview.ts): each text
 * block opens an `agent.message` preview under the id its buffered event will carry, and its
 * text is sent as `event_delta`s of it: the first fragment at once, the later ones gathered for
 * PREVIEW_WINDOW_MS and sent as one, in order, so the deltas still spell the text exactly. A
 * thinking block opens an `agent.thinking` preview (start-only, as the SDK says). What waits is
 * sent before anything else is (the next block's start), when the block or the message ends, and
 * at `close()`. A retried request streams anew from `message_start`, under new ids: the previews
 * of a failed attempt are simply never concluded, which the SDK allows (the request's
 * `span.model_request_end` closes them). Publishing is best effort and the caller's.
 */
export class AnswerPreviews {
  /** The id each content block of the current attempt's answer is previewed under, by block index. */
  private ids = new Map<number, { id: string; type: PreviewedEventType }>();
  /** Previewed blocks whose first fragment was sent: the ones after it wait for the window. */
  private readonly begun = new Set<string>();
  /** One block's fragments waiting for the window, joined in the order they came. */
  private waiting: { eventId: string; text: string } | undefined;
  private timer: unknown;

  constructor(
    private readonly sessionId: string,
    private readonly newEventId: () => string,
    private readonly publish: (preview: SessionPreview) => void,
    private readonly timers: Timers = systemTimers,
  ) {}

  hear(event: MessageStreamEvent): void {
    switch (event.type) {
      case 'message_start':
        this.flush();
        this.ids = new Map();
        return;
      case 'content_block_start': {
        const block = event.content_block;
        const type: PreviewedEventType | undefined =
          block.type === 'text' ? 'agent.message' : block.type === 'thinking' || block.type === 'redacted_thinking' ? 'agent.thinking' : undefined;
        if (!type) return;
        const id = this.newEventId();
        this.ids.set(event.index, { id, type });
        this.send(type, { type: 'event_start', event: { id, type } });
        if (block.type === 'text' && block.text) this.fragment(id, block.text);
        return;
      }
      case 'content_block_delta': {
        const previewed = this.ids.get(event.index);
        if (previewed?.type === 'agent.message' && event.delta.type === 'text_delta' && event.delta.text) this.fragment(previewed.id, event.delta.text);
        return;
      }
      case 'content_block_stop':
      case 'message_stop':
        this.flush();
        return;
      default:
        return;
    }
  }

  /** Sends what still waits and stops the window's timer: the request is over (answered, failed or stopped). */
  close(): void {
    this.flush();
  }

  /** The id the block at `index` of the final answer was previewed under, if it was. */
  idOf(index: number): string | undefined {
    return this.ids.get(index)?.id;
  }

  private fragment(eventId: string, text: string): void {
    if (this.waiting?.eventId === eventId) {
      this.waiting.text += text;
    } else {
      this.flush();
      if (!this.begun.has(eventId)) {
        this.begun.add(eventId);
        this.delta(eventId, text);
        return;
      }
      this.waiting = { eventId, text };
      this.timer = this.timers.set(() => {
        this.timer = undefined;
        this.flush();
      }, PREVIEW_WINDOW_MS);
    }
    if (this.waiting.text.length >= PREVIEW_MAX_CHARS) this.flush();
  }

  private flush(): void {
    if (this.timer !== undefined) this.timers.clear(this.timer);
    this.timer = undefined;
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) this.delta(waiting.eventId, waiting.text);
  }

  /** Each agent.message holds one text block, so every fragment lands in its content's entry 0. */
  private delta(eventId: string, text: string): void {
    this.send('agent.message', { type: 'event_delta', event_id: eventId, delta: { type: 'content_delta', index: 0, content: { type: 'text', text } } });
  }

  private send(previewed: PreviewedEventType, event: SessionPreview['event']): void {
    if (event.type === 'event_start') this.flush();
    this.publish({ session_id: this.sessionId, previewed, event });
  }
}
