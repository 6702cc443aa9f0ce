import { eventSubject } from './streams';
import type { BusIdentity } from './subject';

/**
 * Live feeds: core NATS subjects outside every stream (and outside `rpc.`), for what is worth
 * something only while it happens, such as the fragments of a model answer being streamed. At
 * most once, to whoever listens at that moment; nothing is kept or acknowledged, so publishing to
 * a feed nobody follows costs the publisher one write to its socket. Each message's subject ends
 * with the key it is about (a session id), so a subscriber takes only the keys it serves and the
 * server sends nothing else its way. Who may publish and who may subscribe is declared here once;
 * the NATS permissions are generated from it (shared/bus/permissions.ts).
 */
export const LIVE_FEEDS = {
  // The runtime streams each model answer; a gateway replica subscribes per session while one of
  // its event streams asked for previews (`event_deltas`).
  sessionPreviews: { subjects: 'live.session_previews', publisher: 'runtime', subscribers: ['gateway'] },
  // The deployments service publishes what each append added to a session's log, after the
  // commit; a gateway replica subscribes per session while one of its event streams is open, and
  // delivers the events without reading the log (three reads a turn per stream, before).
  sessionEvents: { subjects: 'live.session_events', publisher: 'deployments', subscribers: ['gateway'] },
} as const satisfies Record<string, { subjects: string; publisher: BusIdentity; subscribers: readonly BusIdentity[] }>;
export type LiveFeedKey = keyof typeof LIVE_FEEDS;

/** The subject of one key's messages on a feed. */
export const liveFeedSubject = (prefix: string, feed: LiveFeedKey, key: string) => eventSubject(prefix, `${LIVE_FEEDS[feed].subjects}.${key}`);

/** Every key of the feeds an identity publishes (`publisher`) or follows (`subscribers`): its permissions. */
export function liveFeedPermissions(prefix: string, identity: BusIdentity): { publish: string[]; subscribe: string[] } {
  const feeds = Object.values(LIVE_FEEDS);
  const all = (subjects: string) => eventSubject(prefix, `${subjects}.>`);
  return {
    publish: feeds.filter((f) => f.publisher === identity).map((f) => all(f.subjects)),
    subscribe: feeds.filter((f) => (f.subscribers as readonly BusIdentity[]).includes(identity)).map((f) => all(f.subjects)),
  };
}
