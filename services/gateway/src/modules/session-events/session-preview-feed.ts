import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { liveFeedSubject } from '@shared/bus/live-feeds';
import { SessionPreview } from '@shared/schema/session-preview';
import { isValid } from '@shared/validation/validate';

type Listener = (preview: SessionPreview) => void;

/**
 * This replica's share of the runtime's live feed of previews (shared/bus/live-feeds.ts): one
 * core NATS subscription per session while at least one of this replica's streams of it asked
 * for previews, so the server sends a replica only the previews it will forward, and a session
 * nobody previews costs nothing. At most once: a lost preview is made good by its buffered event.
 */
export class SessionPreviewFeed {
  private readonly sessions = new Map<string, { subscription: Subscription; listeners: Set<Listener> }>();
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
  ) {}

  /** Calls `listener` with each preview of the session until the returned function is called. */
  listen(sessionId: string, listener: Listener): () => void {
    let followed = this.sessions.get(sessionId);
    if (!followed) {
      const listeners = new Set<Listener>();
      const subscription = this.nc.subscribe(liveFeedSubject(this.prefix, 'sessionPreviews', sessionId), {
        callback: (err, msg) => (err ? undefined : this.dispatch(sessionId, listeners, msg.data)),
      });
      this.sessions.set(sessionId, (followed = { subscription, listeners }));
    }
    const { listeners, subscription } = followed;
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size > 0 || this.sessions.get(sessionId)?.listeners !== listeners) return;
      this.sessions.delete(sessionId);
      subscription.unsubscribe();
    };
  }

  stop(): void {
    for (const { subscription } of this.sessions.values()) subscription.unsubscribe();
    this.sessions.clear();
  }

  private dispatch(sessionId: string, listeners: ReadonlySet<Listener>, data: Uint8Array): void {
    let preview: unknown;
    try {
      preview = JSON.parse(this.decoder.decode(data));
    } catch {
      return;
    }
    // Only what is in its declared form, and about the session the subject names, reaches a client.
    if (!isValid(SessionPreview, preview) || preview.session_id !== sessionId) return;
    for (const listener of listeners) listener(preview);
  }
}
