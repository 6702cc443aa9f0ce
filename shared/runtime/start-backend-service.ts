import type { EventEnvelope } from '../bus/event';
import type { BusIdentity } from '../bus/subject';
import type { Database } from '../db/connect';
import type { OutboxDeadLetterTable, OutboxTable } from '../db/outbox-table';
import type { Clock } from '../time/clock';
import { startServiceRuntime, type RuntimeConfig, type RuntimeOptions, type ServiceRuntime } from './service-runtime';

/** What a test (or main) may hand a service's start function: a clock to drive, a logger to read. */
export type StartOptions = Pick<RuntimeOptions, 'clock' | 'logger'>;

/** A service that answers on the bus from its own database and announces changes through its outbox. */
export interface BackendService {
  /** The service's `migrations/` folder, applied before it serves. */
  migrationsFolder: string;
  /** Its db/schema.ts: the outbox its handlers record events in, and where the relay parks refusals. */
  schema: { outbox: OutboxTable; outboxDeadLetters: OutboxDeadLetterTable };
}

/**
 * The wiring the catalog, vaults and deployments share: the runtime over the service's migrated
 * database, with its outbox relayed; then `register` builds the handlers' deps from the runtime,
 * once, and puts the handlers on the bus.
 */
export async function startBackendService(
  name: BusIdentity,
  config: RuntimeConfig,
  service: BackendService,
  options: StartOptions,
  register: (runtime: ServiceRuntime) => void,
): Promise<ServiceRuntime> {
  const runtime = await startServiceRuntime(name, config, {
    migrationsFolder: service.migrationsFolder,
    outbox: { outbox: service.schema.outbox, deadLetters: service.schema.outboxDeadLetters },
    ...options,
  });
  register(runtime);
  return runtime;
}

/** What handlers that store rows and record events take from the runtime. */
export interface RuntimeDeps {
  db: Database;
  clock: Clock;
  /**
   * Called after a commit that recorded outbox events, so they leave now rather than at the next
   * poll; given the committed envelopes, the relay publishes them from memory without reading
   * them back (OutboxRelay.publishCommitted).
   */
  eventsRecorded: (committed?: readonly EventEnvelope[]) => void;
}

export const runtimeDeps = (runtime: ServiceRuntime): RuntimeDeps => ({
  db: runtime.database.db,
  clock: runtime.clock,
  eventsRecorded: (committed) => (committed ? runtime.relay?.publishCommitted(committed) : runtime.relay?.poke()),
});
