import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import type { Logger } from '../log/logger';
import { SessionLogAppended, SessionLogDeleted, sessionLogEvents } from '../schema/session-event';
import { isValid } from '../validation/validate';
import { EventEnvelope } from './event';
import { eventSubject } from './streams';

/** What a listener hears about its session: the log grew up to a sequence, or the session was deleted. */
export type SessionLogNotice =
  | { kind: 'appended'; sequence: number }
  | { kind: 'deleted'; event_id: string; processed_at: string };

type Listener = (notice: SessionLogNotice) => void;

/**
 * One core NATS subscription per replica to the `sessions.log_*` notifications the deployments
 * service publishes (through its outbox) after each commit that grew or deleted a log, fanned out
 * by session id to this replica's listeners: a gateway's open event streams, a runtime's model
 * requests in flight (an interrupt stops one). Core NATS: at most once, new notices only; no
 * listener depends on one arriving (a stream re-reads the log on every keep-alive, a request
 * not stopped is recorded and the interrupt handled after it), a notice only makes it sooner.
 */
export class SessionLogFollower {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly subscriptions: Subscription[];
  private readonly closers = new Set<() => void>();

  constructor(nc: NatsConnection, prefix: string, private readonly logger: Logger) {
    this.subscriptions = [sessionLogEvents.appended.subject, sessionLogEvents.deleted.subject].map((subject) =>
      nc.subscribe(eventSubject(prefix, subject), { callback: (err, msg) => (err ? undefined : this.dispatch(msg.data)) }),
    );
  }

  /** Calls `listener` with every notice about the session until the returned function is called. */
  listen(sessionId: string, listener: Listener): () => void {
    let set = this.listeners.get(sessionId);
    if (!set) this.listeners.set(sessionId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(sessionId) === set) this.listeners.delete(sessionId);
    };
  }

  /** Registers a stream's way to end itself when the gateway stops; returns its removal. */
  onStop(close: () => void): () => void {
    this.closers.add(close);
    return () => this.closers.delete(close);
  }

  /** Ends every open stream (each ends its response cleanly) and stops listening. */
  stop(): void {
    for (const close of [...this.closers]) close();
    for (const sub of this.subscriptions) sub.unsubscribe();
  }

  private dispatch(data: Uint8Array): void {
    let envelope: unknown;
    try {
      envelope = JSON.parse(new TextDecoder().decode(data));
    } catch {
      return;
    }
    if (!isValid(EventEnvelope, envelope)) return;
    const notice = toNotice(envelope.type, envelope.data);
    if (!notice) {
      this.logger.warn('session log notice ignored: not in its declared form', { subject: envelope.type });
      return;
    }
    for (const listener of this.listeners.get(notice.sessionId) ?? []) listener(notice.notice);
  }
}

function toNotice(type: string, data: unknown): { sessionId: string; notice: SessionLogNotice } | undefined {
  if (type === sessionLogEvents.appended.subject && isValid(SessionLogAppended, data)) {
    return { sessionId: data.session_id, notice: { kind: 'appended', sequence: data.sequence } };
  }
  if (type === sessionLogEvents.deleted.subject && isValid(SessionLogDeleted, data)) {
    return { sessionId: data.session_id, notice: { kind: 'deleted', event_id: data.event_id, processed_at: data.processed_at } };
  }
  return undefined;
}
