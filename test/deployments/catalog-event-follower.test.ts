import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { randomBytes } from 'node:crypto';
import { eventSubject } from '@shared/bus/streams';
import { createLogger } from '@shared/log/logger';
import type { ResolveReferencesReply, ResolveReferencesRequest } from '@shared/schema/references';
import type { Tenant } from '@shared/schema/tenant';
import { ManualClock } from '@shared/time/clock';
import { followCatalogEvents, type CatalogEventFollower } from '../../services/deployments/src/clients/catalog-event-follower';
import { ReferenceCache } from '../../services/deployments/src/clients/reference-cache';
import { eventually } from '../support/eventually';
import { infrastructure } from '../support/infrastructure';
import { TcpProxy } from '../support/tcp-proxy';

/**
 * followCatalogEvents against a real nats-server, reached through a relay the test can cut:
 * the cache it feeds answers from memory only while the feed is whole, drops a tenant's entries
 * on that tenant's events, everything on an event it cannot read, and everything again across
 * a reconnect (events published meanwhile are not redelivered to a core subscription).
 */
const PREFIX = `tfollow${randomBytes(3).toString('hex')}`;
const tenant: Tenant = { organization_id: 'org_f', workspace_id: 'wrkspc_f', scope: 'read_write', key_id: 'k' };
const other: Tenant = { organization_id: 'org_g', workspace_id: 'wrkspc_f', scope: 'read_write', key_id: 'k' };
const request: ResolveReferencesRequest = { agent: null, environment_id: 'env_1', file_ids: [], memory_store_ids: [] };
const okReply = async (req: ResolveReferencesRequest): Promise<ResolveReferencesReply> => ({
  agent: null,
  environment: req.environment_id ? { id: req.environment_id, state: 'ok' } : null,
  files: [],
  memory_stores: [],
});

let proxy: TcpProxy;
let followed: NatsConnection;
let publisher: NatsConnection;
let cache: ReferenceCache;
let follower: CatalogEventFollower;

beforeAll(async () => {
  const natsUrl = new URL((await infrastructure()).natsUrl.split(',')[0]!);
  proxy = await TcpProxy.start({ host: natsUrl.hostname, port: Number(natsUrl.port || 4222) });
  followed = await connect({ servers: `127.0.0.1:${proxy.port}`, reconnectTimeWait: 50, maxReconnectAttempts: -1 });
  publisher = await connect({ servers: natsUrl.host });
  cache = new ReferenceCache(new ManualClock('2026-01-01T00:00:00Z'));
  follower = followCatalogEvents({ nc: followed, prefix: PREFIX, cache, logger: createLogger('error') });
});

afterAll(async () => {
  await follower?.stop();
  await followed?.close();
  await publisher?.close();
  await proxy?.cut();
});

/** Resolves the request once; true when the answer was then kept. */
async function kept(who: Tenant): Promise<boolean> {
  await cache.resolve(who, request, okReply);
  let asked = false;
  await cache.resolve(who, request, async (req) => {
    asked = true;
    return okReply(req);
  });
  return !asked;
}

async function publish(event: unknown): Promise<void> {
  publisher.publish(eventSubject(PREFIX, 'catalog.environment.archived'), JSON.stringify(event));
  await publisher.flush();
}

const envelope = (who: Tenant) => ({
  id: 'evt_1',
  type: 'catalog.environment.archived',
  occurred_at: '2026-01-01T00:00:00.000Z',
  organization_id: who.organization_id,
  workspace_id: who.workspace_id,
  data: { environment_id: 'env_1' },
});

describe('the catalog event follower', () => {
  test('once subscribed, answers are kept; a tenant\'s event drops that tenant\'s entries only', async () => {
    await eventually('the follower to go live', async () => ((await kept(tenant)) ? true : undefined));
    expect(await kept(other)).toBe(true);
    const before = cache.entries;
    await publish(envelope(tenant));
    await eventually('the event to drop the tenant\'s entries', () => (cache.entries === before - 1 ? true : undefined));
    expect(await kept(other)).toBe(true);
  });

  test('an event it cannot read drops everything', async () => {
    expect(await kept(tenant)).toBe(true);
    await publish('not an envelope');
    await eventually('an unreadable event to drop everything', () => (cache.entries === 0 ? true : undefined));
  });

  test('a lost connection drops everything and keeps nothing until the subscription is back', async () => {
    expect(await kept(tenant)).toBe(true);
    const reconnected = (async () => {
      for await (const status of followed.status()) if (status.type === 'reconnect') return;
    })();
    await proxy.cut();
    await eventually('the disconnect to suspend the cache', () => (cache.entries === 0 ? true : undefined));
    expect(await kept(tenant)).toBe(false);
    await proxy.restore();
    await reconnected;
    await eventually('the follower to go live again', async () => ((await kept(tenant)) ? true : undefined));
    // And its subscription is back: the tenant's event reaches it again.
    await publish(envelope(tenant));
    await eventually('the event after the reconnect', () => (cache.entries === 0 ? true : undefined));
  });
});
