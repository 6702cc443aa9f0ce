import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import { eventSubject, STREAMS } from '@shared/bus/streams';
import type { Logger } from '@shared/log/logger';
import type { Tenant } from '@shared/schema/tenant';
import type { ReferenceCache } from './reference-cache';

/** The subscription that keeps a ReferenceCache honest; stop() ends it. */
export interface CatalogEventFollower {
  stop(): Promise<void>;
}

/**
 * Follows the catalog's events with a core NATS subscription (every replica hears every event;
 * a queue group or a shared durable would give each event to one replica only) and drops the
 * entries of each event's tenant. The cache answers nothing until the subscription is known to
 * be registered on the server (a flush after subscribing), and forgets everything and answers
 * nothing again from a disconnect until the next reconnect's subscription is flushed: events
 * published in between are not redelivered. A subscription error (e.g. a permission refused)
 * leaves the cache suspended for good: slower, never stale.
 */
export function followCatalogEvents(options: {
  nc: NatsConnection;
  prefix: string;
  cache: ReferenceCache;
  logger: Logger;
}): CatalogEventFollower {
  const { nc, cache } = options;
  const logger = options.logger.child({ component: 'reference-cache' });
  let stopped = false;
  let failed = false;
  // Each attempt to go live; a flush that resolves after a newer disconnect must not resume.
  let attempt = 0;

  const onEvent = (err: Error | null, msg: Msg) => {
    if (err) {
      failed = true;
      cache.suspend();
      logger.error('catalog event subscription failed; references are no longer cached', { error: err });
      return;
    }
    const tenant = eventTenant(msg);
    if (tenant) cache.forgetTenant(tenant);
    else cache.forgetAll();
  };
  const sub: Subscription = nc.subscribe(eventSubject(options.prefix, STREAMS.catalog.subjects), { callback: onEvent });

  const goLive = () => {
    const mine = ++attempt;
    nc.flush().then(
      () => {
        if (mine === attempt && !stopped && !failed && !sub.isClosed()) cache.resume();
      },
      () => undefined,
    );
  };
  const suspend = () => {
    attempt++;
    cache.suspend();
  };
  goLive();

  // Ends by itself when the connection closes (the runtime drains it after the stop hooks).
  void (async () => {
    for await (const status of nc.status()) {
      if (stopped) break;
      if (status.type === 'disconnect' || status.type === 'staleConnection' || status.type === 'forceReconnect') suspend();
      else if (status.type === 'reconnect') goLive();
      else if (status.type === 'slowConsumer' && status.sub === sub) cache.forgetAll();
    }
  })().catch((err) => {
    suspend();
    logger.error('connection status watch ended; references are no longer cached', { error: err });
  });

  return {
    stop: async () => {
      if (stopped) return;
      stopped = true;
      suspend();
      sub.unsubscribe();
    },
  };
}

/** The tenant of a catalog event's envelope, or undefined for anything unreadable. */
function eventTenant(msg: Msg): Pick<Tenant, 'organization_id' | 'workspace_id'> | undefined {
  try {
    const envelope = msg.json<{ organization_id?: unknown; workspace_id?: unknown }>();
    const { organization_id, workspace_id } = envelope ?? {};
    return typeof organization_id === 'string' && typeof workspace_id === 'string' ? { organization_id, workspace_id } : undefined;
  } catch {
    return undefined;
  }
}
