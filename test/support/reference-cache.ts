import { outbox as catalogOutbox } from '../../services/catalog/src/db/schema';
import { outboxRelayed } from './settled';
import type { Stack } from './stack';

/**
 * Resolves once the deployments service's reference cache has heard every catalog event
 * committed so far: for a test whose refusal cannot be retried with `eventually` (a scheduled
 * fire happens once per occurrence), so it must not run before the invalidation has arrived.
 *
 * Why this is enough: the catalog's outbox is empty once each event is published, and NATS
 * routes a message to every core subscriber while it handles the publish, before JetStream
 * acknowledges it; a round trip on the deployments connection then comes back after everything
 * NATS routed to that connection before (one connection's messages keep their order), and the
 * cache's subscription callback runs as each message is read.
 */
export async function referenceCacheCaughtUp(stack: Stack, timeoutMs = 20_000): Promise<void> {
  await outboxRelayed(stack.service('catalog'), catalogOutbox, 'catalog', { timeoutMs });
  await stack.service('deployments').nc.flush();
}
