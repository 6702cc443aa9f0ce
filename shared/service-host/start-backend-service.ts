import type { EventEnvelope } from '../bus/event';
import type { BusIdentity } from '../bus/subject';
import type { Database } from '../db/connect';
import type { OutboxDeadLetterTable, OutboxTable } from '../db/outbox-table';
import type { Clock } from '../time/clock';
import { startServiceHost, type ServiceHostConfig, type ServiceHostOptions, type ServiceHost } from './service-host';

/** What a test (or main) may hand a service's start function: a clock to drive, a logger to read. */
export type StartOptions = Pick<ServiceHostOptions, 'clock' | 'logger'>;

/** A service that answers on the bus from its own database and announces changes through its outbox. */
export interface BackendService {
  /** The service's `migrations/` folder, applied before it serves. */
  migrationsFolder: string;
  /** Its db/schema.ts: the outbox its handlers record events in, and where the relay parks refusals. */
  schema: { outbox: OutboxTable; outboxDeadLetters: OutboxDeadLetterTable };
}

/**
 * The wiring the catalog, vaults and deployments share: the host over the service's migrated
 * database, with its outbox relayed; then `register` builds the handlers' deps from the host,
 * once, and puts the handlers on the bus.
 */
export async function startBackendService(
  name: BusIdentity,
  config: ServiceHostConfig,
  service: BackendService,
  options: StartOptions,
  register: (host: ServiceHost) => void,
): Promise<ServiceHost> {
  const host = await startServiceHost(name, config, {
    migrationsFolder: service.migrationsFolder,
    outbox: { outbox: service.schema.outbox, deadLetters: service.schema.outboxDeadLetters },
    ...options,
  });
  register(host);
  return host;
}

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
