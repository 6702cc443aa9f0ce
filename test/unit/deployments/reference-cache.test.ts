import { describe, expect, test } from 'bun:test';
import type { Model } from '@shared/schema/model';
import { modelFixture } from '../../support/model-fixture';
import type { ResolveReferencesReply, ResolveReferencesRequest } from '@shared/schema/references';
import type { Tenant } from '@shared/schema/tenant';
import { ManualClock } from '@shared/time/clock';
import { ReferenceCache } from '../../../services/deployments/src/clients/reference-cache';

/**
 * The reference cache's rules with a fake catalog (`ask`) and a hand-moved clock: what it keeps,
 * what it asks, and when it forgets. Its invalidation by real events is in
 * test/deployments/reference-cache.test.ts.
 */
const tenant: Tenant = { organization_id: 'org_a', workspace_id: 'wrkspc_a', scope: 'read_write', key_id: 'k' };
const other: Tenant = { organization_id: 'org_b', workspace_id: 'wrkspc_a', scope: 'read_write', key_id: 'k' };
const model: Model = modelFixture();

const request = (over: Partial<ResolveReferencesRequest> = {}): ResolveReferencesRequest => ({
  agent: { id: 'agent_1', version: null },
  environment_id: 'env_1',
  file_ids: ['file_1'],
  memory_store_ids: ['memstore_1'],
  ...over,
});

/** A catalog that answers 'ok' for everything except the ids in `refused`, and records what it was asked. */
function fakeCatalog(refused: Record<string, 'not_found' | 'archived'> = {}) {
  const asked: ResolveReferencesRequest[] = [];
  let version = 3;
  const state = (id: string) => refused[id] ?? ('ok' as const);
  const ask = async (req: ResolveReferencesRequest): Promise<ResolveReferencesReply> => {
    asked.push(req);
    return {
      agent: req.agent
        ? {
            id: req.agent.id,
            state: state(req.agent.id),
            version: state(req.agent.id) === 'not_found' ? null : (req.agent.version ?? version),
            model: state(req.agent.id) === 'not_found' ? null : model,
          }
        : null,
      environment: req.environment_id ? { id: req.environment_id, state: state(req.environment_id) } : null,
      files: req.file_ids.map((id) => ({ id, state: state(id) })),
      memory_stores: req.memory_store_ids.map((id) => ({ id, state: state(id) })),
    };
  };
  return { ask, asked, refused, setVersion: (v: number) => void (version = v) };
}

function liveCache(clock = new ManualClock('2026-01-01T00:00:00Z'), limits = { ttlMs: 60_000, maxEntries: 100 }) {
  const cache = new ReferenceCache(clock, limits);
  cache.resume();
  return { cache, clock };
}

describe('the reference cache', () => {
  test('a usable answer is kept: the same request then asks nothing, and answers as the catalog did', async () => {
    const { cache } = liveCache();
    const catalog = fakeCatalog();
    const first = await cache.resolve(tenant, request(), catalog.ask);
    const second = await cache.resolve(tenant, request(), catalog.ask);
    expect(catalog.asked).toHaveLength(1);
    expect(second).toEqual(first);
    expect(second).toEqual({
      agent: { id: 'agent_1', state: 'ok', version: 3, model },
      environment: { id: 'env_1', state: 'ok' },
      files: [{ id: 'file_1', state: 'ok' }],
      memory_stores: [{ id: 'memstore_1', state: 'ok' }],
    });
  });

  test('only what is not known is asked; the reply keeps the order of the request', async () => {
    const { cache } = liveCache();
    const catalog = fakeCatalog();
    await cache.resolve(tenant, request(), catalog.ask);
    const reply = await cache.resolve(tenant, request({ file_ids: ['file_2', 'file_1'], memory_store_ids: [] }), catalog.ask);
    expect(catalog.asked[1]).toEqual({ agent: null, environment_id: null, file_ids: ['file_2'], memory_store_ids: [] });
    expect(reply.files).toEqual([
      { id: 'file_2', state: 'ok' },
      { id: 'file_1', state: 'ok' },
    ]);
  });

  test('the latest version answered is also kept as that version (what fires ask about)', async () => {
    const { cache } = liveCache();
    const catalog = fakeCatalog();
    await cache.resolve(tenant, request(), catalog.ask);
    const pinned = await cache.resolve(tenant, request({ agent: { id: 'agent_1', version: 3 } }), catalog.ask);
    expect(catalog.asked).toHaveLength(1);
    expect(pinned.agent).toEqual({ id: 'agent_1', state: 'ok', version: 3, model });
  });

  test.each([['not_found' as const], ['archived' as const]])('an answer with a reference %s is never kept', async (state) => {
    for (const id of ['agent_1', 'env_1', 'file_1', 'memstore_1']) {
      const { cache } = liveCache();
      const catalog = fakeCatalog({ [id]: state });
      const first = await cache.resolve(tenant, request(), catalog.ask);
      // Created (or unarchived) a moment later: found at once.
      delete catalog.refused[id];
      const second = await cache.resolve(tenant, request(), catalog.ask);
      expect(catalog.asked).toHaveLength(2);
      expect(JSON.stringify(first)).toContain(state);
      expect(JSON.stringify(second)).not.toContain(state);
      expect(cache.entries).toBeGreaterThan(0);
    }
  });

  test('a reference the catalog leaves out of its reply stays left out, and nothing is kept', async () => {
    const { cache } = liveCache();
    const ask = async (): Promise<ResolveReferencesReply> => ({ agent: null, environment: null, files: [], memory_stores: [] });
    const reply = await cache.resolve(tenant, request(), ask);
    expect(reply).toEqual({ agent: null, environment: null, files: [], memory_stores: [] });
    expect(cache.entries).toBe(0);
  });

  /** The same request resolved once for `tenant` and once for `other`. */
  async function resolvedForBothTenants() {
    const { cache } = liveCache();
    const catalog = fakeCatalog();
    await cache.resolve(tenant, request(), catalog.ask);
    await cache.resolve(other, request(), catalog.ask);
    return { cache, catalog };
  }

  test('entries are per tenant: another tenant asks for itself', async () => {
    const { catalog } = await resolvedForBothTenants();
    expect(catalog.asked).toHaveLength(2);
  });

  test('forgetting a tenant drops its entries only, and a new agent version is then seen', async () => {
    const { cache, catalog } = await resolvedForBothTenants();
    catalog.setVersion(4);
    cache.forgetTenant(tenant);
    expect((await cache.resolve(tenant, request(), catalog.ask)).agent?.version).toBe(4);
    expect((await cache.resolve(other, request(), catalog.ask)).agent?.version).toBe(3);
    expect(catalog.asked).toHaveLength(3);
  });

  test('an answer fetched while its tenant was forgotten is not kept: it may predate the change', async () => {
    const { cache } = liveCache();
    const catalog = fakeCatalog();
    await cache.resolve(tenant, request(), async (req) => {
      const reply = await catalog.ask(req);
      cache.forgetTenant(tenant); // the archive's event arrives before the reply read before it
      return reply;
    });
    await cache.resolve(tenant, request(), catalog.ask);
    expect(catalog.asked).toHaveLength(2);
  });

  test('entries expire after the TTL', async () => {
    const { cache, clock } = liveCache();
    const catalog = fakeCatalog();
    await cache.resolve(tenant, request(), catalog.ask);
    clock.advance(59_999);
    await cache.resolve(tenant, request(), catalog.ask);
    expect(catalog.asked).toHaveLength(1);
    clock.advance(1);
    await cache.resolve(tenant, request(), catalog.ask);
    expect(catalog.asked).toHaveLength(2);
  });

  test('the size is bounded: the least recently used go first', async () => {
    const { cache } = liveCache(undefined, { ttlMs: 60_000, maxEntries: 3 });
    const catalog = fakeCatalog();
    const env = (id: string) => request({ agent: null, environment_id: id, file_ids: [], memory_store_ids: [] });
    await cache.resolve(tenant, env('env_1'), catalog.ask);
    await cache.resolve(tenant, env('env_2'), catalog.ask);
    await cache.resolve(tenant, env('env_3'), catalog.ask);
    await cache.resolve(tenant, env('env_1'), catalog.ask); // used again: env_2 is now the oldest
    await cache.resolve(tenant, env('env_4'), catalog.ask);
    expect(cache.entries).toBe(3);
    expect(catalog.asked).toHaveLength(4);
    await cache.resolve(tenant, env('env_1'), catalog.ask);
    expect(catalog.asked).toHaveLength(4);
    await cache.resolve(tenant, env('env_2'), catalog.ask);
    expect(catalog.asked).toHaveLength(5);
  });

  test('until it is live, and once suspended, nothing is answered from memory or kept', async () => {
    const cache = new ReferenceCache(new ManualClock('2026-01-01T00:00:00Z'));
    const catalog = fakeCatalog();
    await cache.resolve(tenant, request(), catalog.ask);
    expect(cache.entries).toBe(0);
    cache.resume();
    await cache.resolve(tenant, request(), catalog.ask);
    expect(cache.entries).toBeGreaterThan(0);
    cache.suspend();
    expect(cache.entries).toBe(0);
    await cache.resolve(tenant, request(), catalog.ask);
    expect(cache.entries).toBe(0);
    expect(catalog.asked).toHaveLength(3);
  });

  test('a request the cache knows entirely asks nothing at all', async () => {
    const { cache } = liveCache();
    const catalog = fakeCatalog();
    await cache.resolve(tenant, request(), catalog.ask);
    await cache.resolve(tenant, request({ file_ids: [], memory_store_ids: [] }), catalog.ask);
    expect(catalog.asked).toHaveLength(1);
  });
});
