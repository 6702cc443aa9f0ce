import type { EventEnvelope } from '../bus/event';
import type { Database } from '../db/connect';
import type { Clock } from '../time/clock';
import type { ServiceHost } from './service-host';

/** What handlers that store rows and record events take from their process host. */
export interface StoreDeps {
  db: Database;
  clock: Clock;
  /**
   * Called after a commit that recorded outbox events, so they leave now rather than at the next
   * poll; given the committed envelopes, the relay publishes them from memory without reading
   * them back (OutboxRelay.publishCommitted).
   */
  eventsRecorded: (committed?: readonly EventEnvelope[]) => void;
}

export const storeDeps = (host: ServiceHost): StoreDeps => ({
  db: host.database.db,
  clock: host.clock,
  eventsRecorded: (committed) => (committed ? host.relay?.publishCommitted(committed) : host.relay?.poke()),
});
