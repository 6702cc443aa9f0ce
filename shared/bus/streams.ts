import type { NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager, JetStreamApiError } from '@nats-io/jetstream';
import type { BusIdentity } from './subject';

/**
 * Domain events, one stream per publishing domain. Request/reply lives under `rpc.` so no
 * stream ever captures a request. Subjects carry no prefix in a default install, so the agent
 * runtime subscribes to the plain `sessions.created`.
 */
export const STREAMS = {
  deployments: { name: 'DEPLOYMENT_EVENTS', subjects: 'deployments.>', owner: 'deployments', readers: ['scheduler'], followers: [] },
  vaults: { name: 'VAULT_EVENTS', subjects: 'vaults.>', owner: 'vaults', readers: [], followers: [] },
  // Every deployments replica drops its reference cache's entries of a tenant on that tenant's catalog events.
  catalog: { name: 'CATALOG_EVENTS', subjects: 'catalog.>', owner: 'catalog', readers: [], followers: ['deployments'] },
  // Every gateway replica hears that a session's log grew, for the event streams it serves; the
  // runtime's replicas share a durable consumer of it: each notice is a session that may have work;
  // and each runtime replica hears it too, so a model request in flight stops on an interrupt.
  sessions: { name: 'SESSION_EVENTS', subjects: 'sessions.>', owner: 'deployments', readers: ['runtime'], followers: ['gateway', 'runtime'] },
} as const satisfies Record<string, StreamDeclaration>;
export type StreamKey = keyof typeof STREAMS;

/**
 * `owner` is the only identity that may publish the stream's events; `readers` may run durable
 * consumers on it; `followers` may subscribe to its subjects with a core NATS subscription, which
 * every replica gets on its own: new events only, at most once, no consumer kept by the server
 * (what a per-replica cache needs to hear of changes, not what a worker needs to do each once).
 * The NATS permissions are generated from these (shared/bus/permissions.ts).
 */
interface StreamDeclaration {
  name: string;
  subjects: string;
  owner: BusIdentity;
  readers: readonly BusIdentity[];
  followers: readonly BusIdentity[];
}

/** The streams an identity creates at start: those it publishes to or consumes from. */
export const streamsOf = (identity: BusIdentity): StreamKey[] =>
  (Object.keys(STREAMS) as StreamKey[]).filter(
    (key) => STREAMS[key].owner === identity || (STREAMS[key].readers as readonly BusIdentity[]).includes(identity),
  );

export const eventSubject = (prefix: string, subject: string) => (prefix ? `${prefix}.${subject}` : subject);
export const streamName = (prefix: string, stream: StreamKey) =>
  (prefix ? `${prefix.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_` : '') + STREAMS[stream].name;

/**
 * Idempotent: creates the streams or brings their subjects up to date; safe from every replica.
 * A service passes only its own streams (streamsOf): its NATS identity may manage no others.
 */
export async function ensureStreams(
  nc: NatsConnection,
  prefix: string,
  keys: readonly StreamKey[] = Object.keys(STREAMS) as StreamKey[],
): Promise<void> {
  const jsm = await jetstreamManager(nc);
  for (const key of keys) {
    const config = {
      name: streamName(prefix, key),
      subjects: [eventSubject(prefix, STREAMS[key].subjects)],
      // Outbox rows are published with their event id as msgID; a relay that retries after a
      // crash is deduplicated by the server inside this window.
      duplicate_window: 10 * 60 * 1_000_000_000,
    };
    try {
      await jsm.streams.add(config);
    } catch (err) {
      if (!(err instanceof JetStreamApiError)) throw err;
      await jsm.streams.update(config.name, { subjects: config.subjects, duplicate_window: config.duplicate_window });
    }
  }
}

export async function deleteStreams(nc: NatsConnection, prefix: string): Promise<void> {
  const jsm = await jetstreamManager(nc);
  for (const key of Object.keys(STREAMS) as StreamKey[]) {
    await jsm.streams.delete(streamName(prefix, key)).catch(() => undefined);
  }
}
