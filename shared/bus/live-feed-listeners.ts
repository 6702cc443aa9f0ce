import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import type { Static, TSchema } from '@sinclair/typebox';
import { isValid } from '../validation/validate';
import { liveFeedSubject, type LiveFeedKey } from './live-feeds';

type Listener<T> = (message: T) => void;

/**
 * One replica's share of a live feed (live-feeds.ts): one core NATS subscription per key (a
 * session id) while at least one listener of this replica wants that key, so the server sends a
 * replica only what it will use, and a key nobody follows costs nothing. At most once: whoever
 * listens must make good a lost message some other way (a preview by its buffered event, an
 * appended event by reading the log).
 */
export class LiveFeedListeners<S extends TSchema> {
  private readonly keys = new Map<string, { subscription: Subscription; listeners: Set<Listener<Static<S>>> }>();
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
    private readonly feed: LiveFeedKey,
    /** The messages' declared form: nothing else reaches a listener. */
    private readonly schema: S,
    /** The key a message is about, which must be the one its subject names. */
    private readonly keyOf: (message: Static<S>) => string,
  ) {}

  /** Calls `listener` with each message about `key` until the returned function is called. */
  listen(key: string, listener: Listener<Static<S>>): () => void {
    let followed = this.keys.get(key);
    if (!followed) {
      const listeners = new Set<Listener<Static<S>>>();
      const subscription = this.nc.subscribe(liveFeedSubject(this.prefix, this.feed, key), {
        callback: (err, msg) => (err ? undefined : this.dispatch(key, listeners, msg.data)),
      });
      this.keys.set(key, (followed = { subscription, listeners }));
    }
    const { listeners, subscription } = followed;
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size > 0 || this.keys.get(key)?.listeners !== listeners) return;
      this.keys.delete(key);
      subscription.unsubscribe();
    };
  }

  stop(): void {
    for (const { subscription } of this.keys.values()) subscription.unsubscribe();
    this.keys.clear();
  }

  private dispatch(key: string, listeners: ReadonlySet<Listener<Static<S>>>, data: Uint8Array): void {
    let message: unknown;
    try {
      message = JSON.parse(this.decoder.decode(data));
    } catch {
      return;
    }
    if (!isValid(this.schema, message) || this.keyOf(message) !== key) return;
    for (const listener of listeners) listener(message);
  }
}
