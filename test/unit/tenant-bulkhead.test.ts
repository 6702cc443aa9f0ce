/**
 * The per-tenant bulkhead on its own: slots, the tenant's FIFO queue, both refusals, and that
 * tenants never wait behind each other. Timers are driven by hand; nothing sleeps.
 */
import { Registry } from 'prom-client';
import { describe, expect, test } from 'bun:test';
import { ApiError } from '@shared/errors/api-error';
import { defaultTenantConcurrency, TenantBulkhead, type Release } from '@shared/bus/tenant-bulkhead';
import { HandTimers } from '../support/hand-timers';

const A = { organization_id: 'org_a', workspace_id: 'wrkspc_a' };
const A2 = { organization_id: 'org_a', workspace_id: 'wrkspc_other' };
const B = { organization_id: 'org_b', workspace_id: 'wrkspc_b' };

/** Lets settled promises run their callbacks. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

function track(promise: Promise<Release>) {
  const state: { release?: Release; error?: unknown } = {};
  promise.then(
    (release) => (state.release = release),
    (error) => (state.error = error),
  );
  return state;
}

describe('TenantBulkhead', () => {
  test('a tenant gets its slots, then waits in its own FIFO queue, then is refused with 429', async () => {
    const timers = new HandTimers();
    const registry = new Registry();
    const bulkhead = new TenantBulkhead({ maxConcurrency: 2, maxQueue: 2, maxWaitMs: 2500, timers, registry });
    const running = [track(bulkhead.acquire(A)), track(bulkhead.acquire(A))];
    const queued = [track(bulkhead.acquire(A)), track(bulkhead.acquire(A))];
    const refused = track(bulkhead.acquire(A));
    await settle();
    expect(running.every((r) => r.release)).toBe(true);
    expect(queued.every((q) => !q.release && !q.error)).toBe(true);
    expect(refused.error).toBeInstanceOf(ApiError);
    expect((refused.error as ApiError).type).toBe('rate_limit_error');
    expect((refused.error as ApiError).status).toBe(429);
    expect((refused.error as ApiError).message).toMatch(/retry/);
    expect(bulkhead.stats()).toEqual({ active: 2, queued: 2, tenants: 1 });
    expect(timers.delays).toEqual([2500, 2500]);

    // Another tenant, and another workspace of the same organization, are not queued behind A.
    const b = track(bulkhead.acquire(B));
    const a2 = track(bulkhead.acquire(A2));
    await settle();
    expect(b.release).toBeDefined();
    expect(a2.release).toBeDefined();

    // A freed slot goes to the oldest waiter, and only to it.
    running[1]!.release!();
    await settle();
    expect(queued[0]!.release).toBeDefined();
    expect(queued[1]!.release).toBeUndefined();
    running[1]!.release!(); // twice is harmless: no second waiter is admitted
    await settle();
    expect(queued[1]!.release).toBeUndefined();
    running[0]!.release!();
    await settle();
    expect(queued[1]!.release).toBeDefined();
    expect(timers.count).toBe(0);

    for (const r of [queued[0]!, queued[1]!, b, a2]) r.release!();
    expect(bulkhead.stats()).toEqual({ active: 0, queued: 0, tenants: 0 });
    expect(await registry.metrics()).toContain('bus_tenant_requests_refused_total{reason="queue_full"} 1');
  });

  test('a request that waits past the bound is refused with 429 and leaves the queue', async () => {
    const timers = new HandTimers();
    const registry = new Registry();
    const bulkhead = new TenantBulkhead({ maxConcurrency: 1, maxQueue: 5, maxWaitMs: 1000, timers, registry });
    const first = track(bulkhead.acquire(A));
    const waiting = track(bulkhead.acquire(A));
    await settle();
    timers.fireAll();
    await settle();
    expect((waiting.error as ApiError).type).toBe('rate_limit_error');
    expect(bulkhead.stats()).toEqual({ active: 1, queued: 0, tenants: 1 });
    first.release!();
    expect(bulkhead.stats().tenants).toBe(0);
    expect(await registry.metrics()).toContain('bus_tenant_requests_refused_total{reason="wait_expired"} 1');
  });

  test('a queue of 0 refuses at once; work without a tenant is never limited', async () => {
    const bulkhead = new TenantBulkhead({ maxConcurrency: 1, maxQueue: 0, maxWaitMs: 1000, timers: new HandTimers() });
    const first = track(bulkhead.acquire(A));
    const second = track(bulkhead.acquire(A));
    const system = await Promise.all(Array.from({ length: 50 }, () => bulkhead.acquire(null)));
    await settle();
    expect(first.release).toBeDefined();
    expect((second.error as ApiError).status).toBe(429);
    expect(system).toHaveLength(50);
    expect(bulkhead.stats()).toEqual({ active: 1, queued: 0, tenants: 1 });
  });

  test('the default concurrency is half the database pool, at least 1', () => {
    expect(defaultTenantConcurrency(10)).toBe(8);
    expect(defaultTenantConcurrency(5)).toBe(4);
    expect(defaultTenantConcurrency(3)).toBe(2);
    expect(defaultTenantConcurrency(2)).toBe(1);
    expect(defaultTenantConcurrency(1)).toBe(1);
  });
});
