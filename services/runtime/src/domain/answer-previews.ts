import type { MessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { PreviewedEventType, SessionPreview } from '@shared/schema/session-preview';

/**
 * The previews of one model answer as it streams (shared/schema/session-preview.ts): each text
 * block opens an `agent.message` preview under the id its buffered event will carry, and each
 * text fragment is an `event_delta` of it; a thinking block opens an `agent.thinking` preview
 * (start-only, as the SDK says). A retried request streams anew from `message_start`, under new
 * ids: the previews of a failed attempt are simply never concluded, which the SDK allows (the
 * request's `span.model_request_end` closes them). Publishing is best effort and the caller's.
 */
export class AnswerPreviews {
  /** The id each content block of the current attempt's answer is previewed under, by block index. */
  private ids = new Map<number, { id: string; type: PreviewedEventType }>();

  constructor(
    private readonly sessionId: string,
    private readonly newEventId: () => string,
    private readonly publish: (preview: SessionPreview) => void,
  ) {}

  hear(event: MessageStreamEvent): void {
    switch (event.type) {
      case 'message_start':
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
      default:
        return;
    }
  }

  /** The id the block at `index` of the final answer was previewed under, if it was. */
  idOf(index: number): string | undefined {
    return this.ids.get(index)?.id;
  }

  /** Each agent.message holds one text block, so every fragment lands in its content's entry 0. */
  private fragment(eventId: string, text: string): void {
    this.send('agent.message', { type: 'event_delta', event_id: eventId, delta: { type: 'content_delta', index: 0, content: { type: 'text', text } } });
  }

  private send(previewed: PreviewedEventType, event: SessionPreview['event']): void {
    this.publish({ session_id: this.sessionId, previewed, event });
  }
}
