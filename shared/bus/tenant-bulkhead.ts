import { Counter, Gauge, type Registry } from 'prom-client';
import { ApiError } from '../errors/api-error';
import type { BatcherOptions } from '../db/batcher';
import type { TenantIds } from '../schema/tenant';
import { systemTimers, type Timers } from '../time/timers';

export interface TenantBulkheadOptions {
  /** Requests of one tenant handled at once by this process. */
  maxConcurrency: number;
  /** Requests of one tenant waiting for a slot; one more is refused at once. */
  maxQueue: number;
  /** Longest a request waits for a slot; then it is refused (its caller would stop waiting soon). */
  maxWaitMs: number;
  /** The timer a queued request's wait runs on. */
  timers?: Timers;
  /** The service's metrics registry its gauges and refusal counts go to; absent, they are kept unserved. */
  registry?: Registry;
}

/**
 * The default concurrency per tenant: the database pool less a quarter of it (at least one
 * connection), so one tenant's requests, however slow, always leave connections to every other
 * tenant, while a tenant working alone still gets most of the process (8 of a pool of 10). Half
 * the pool was tried first and throttled a lone tenant's bursts (a schedule firing hundreds of
 * deployments at 09:00) for no one's benefit.
 */
export const defaultTenantConcurrency = (poolSize: number): number =>
  Math.max(1, poolSize - Math.max(1, Math.floor(poolSize / 4)));
/**
 * Requests of one tenant that may wait: enough for a burst (the scheduler fires up to its batch
 * size per worker at once; clients create in parallel) to wait its turn rather than be refused.
 * A tenant's own sessions make such bursts too: each running session has its drive's call, its
 * watchers' log reads and its client's sends in flight at once, so a workspace with hundreds of
 * sessions answered at the same moment queues a few calls per session (200 sessions overflowed a
 * queue of 200; bench/agent-loop-speed.ts --parts many). The wait bound (half BUS_TIMEOUT_MS)
 * still refuses what the replica cannot serve in time. A waiting request holds only its
 * undecoded message, which NATS has delivered anyway.
 */
export const DEFAULT_TENANT_MAX_QUEUE = 2000;

/** A slot's release; calling it more than once is harmless. */
export type Release = () => void;

interface Waiter {
  admit: (release: Release) => void;
  refuse: (err: ApiError) => void;
  timer: unknown;
}

interface Lane {
  active: number;
  queue: Waiter[];
}

/**
 * Per-tenant bulkhead of one process: each tenant (organization + workspace) gets at most
 * `maxConcurrency` requests in progress; more wait in that tenant's own FIFO queue, bounded in
 * length and in time, and past either bound are refused with 429 `rate_limit_error`, which
 * clients retry. A tenant only ever waits behind itself, so a flood from one tenant cannot use up
 * the database pool or the process's concurrency that other tenants need. Work without a tenant
 * (the system's own) is not limited here.
 */
export class TenantBulkhead {
  private readonly lanes = new Map<string, Lane>();
  private readonly timers: Timers;
  private readonly refused: Counter<'reason'>;

  constructor(private readonly options: TenantBulkheadOptions) {
    if (options.maxConcurrency < 1) throw new Error('maxConcurrency must be at least 1');
    this.timers = options.timers ?? systemTimers;
    // No tenant labels: unbounded, and tenant data.
    const registers = options.registry ? [options.registry] : [];
    const stats = () => this.stats();
    new Gauge({
      name: 'bus_tenant_requests_active',
      help: 'Requests of tenants this replica is handling now.',
      registers,
      collect() {
        this.set(stats().active);
      },
    });
    new Gauge({
      name: 'bus_tenant_requests_queued',
      help: 'Requests waiting because their tenant is at TENANT_MAX_CONCURRENCY.',
      registers,
      collect() {
        this.set(stats().queued);
      },
    });
    this.refused = new Counter({
      name: 'bus_tenant_requests_refused_total',
      help: "Requests answered 429: their tenant's queue was full, or they waited too long.",
      labelNames: ['reason'],
      registers,
    });
    for (const reason of ['queue_full', 'wait_expired']) this.refused.inc({ reason }, 0);
  }

  /** Resolves with the slot's release once the tenant may run; throws a 429 ApiError if refused. */
  acquire(tenant: TenantIds | null): Promise<Release> {
    if (!tenant) return Promise.resolve(() => undefined);
    const key = laneKey(tenant);
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { active: 0, queue: [] };
      this.lanes.set(key, lane);
    }
    if (lane.active < this.options.maxConcurrency) {
      lane.active++;
      return Promise.resolve(this.releaseOf(key, lane));
    }
    if (lane.queue.length >= this.options.maxQueue) {
      this.refused.inc({ reason: 'queue_full' });
      return Promise.reject(tooMany());
    }
    const current = lane;
    return new Promise<Release>((admit, refuse) => {
      const waiter: Waiter = { admit, refuse, timer: undefined };
      waiter.timer = this.timers.set(() => {
        const at = current.queue.indexOf(waiter);
        if (at < 0) return;
        current.queue.splice(at, 1);
        this.refused.inc({ reason: 'wait_expired' });
        this.forgetIfIdle(key, current);
        refuse(tooMany());
      }, this.options.maxWaitMs);
      current.queue.push(waiter);
    });
  }

  /**
   * Lanes for a batcher that requests enter after handing their slot back (a group commit): one
   * per tenant, taken in turn, each bounded by this bulkhead's queue length and refused with the
   * same 429, so what left the bulkhead still waits only behind its own tenant's share.
   */
  batchLanes<I>(tenantOfItem: (item: I) => TenantIds): Pick<BatcherOptions<I>, 'laneOf' | 'maxQueuedPerLane' | 'refuse'> {
    return { laneOf: (item) => laneKey(tenantOfItem(item)), maxQueuedPerLane: this.options.maxQueue, refuse: tooMany };
  }

  /** Requests in progress and waiting, over all tenants (for /metrics and tests). */
  stats(): { active: number; queued: number; tenants: number } {
    let active = 0;
    let queued = 0;
    for (const lane of this.lanes.values()) {
      active += lane.active;
      queued += lane.queue.length;
    }
    return { active, queued, tenants: this.lanes.size };
  }

  private releaseOf(key: string, lane: Lane): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = lane.queue.shift();
      if (next) {
        // The slot passes straight to the oldest waiter: the tenant's count stays the same.
        this.timers.clear(next.timer);
        next.admit(this.releaseOf(key, lane));
        return;
      }
      lane.active--;
      this.forgetIfIdle(key, lane);
    };
  }

  /** Idle tenants leave no state behind, however many have called. */
  private forgetIfIdle(key: string, lane: Lane): void {
    if (lane.active === 0 && lane.queue.length === 0 && this.lanes.get(key) === lane) this.lanes.delete(key);
  }
}


/** A bulkhead's batchLanes, as handlers' deps carry it (batchers built in a handler's module take lanes from it). */
export type TenantLanes = <I>(tenantOfItem: (item: I) => TenantIds) => Pick<BatcherOptions<I>, 'laneOf' | 'maxQueuedPerLane' | 'refuse'>;
const laneKey = (tenant: TenantIds) => `${tenant.organization_id}\u0000${tenant.workspace_id}`;

function tooMany(): ApiError {
  return new ApiError(
    'rate_limit_error',
    'Too many concurrent requests for this workspace; retry after a short wait',
  );
}
