import type { TenantIds } from '@shared/schema/tenant';

/** A tenant with cloud items queued, and when its oldest one was queued. */
export interface WaitingTenant {
  tenant: TenantIds;
  oldestQueuedAt: Date;
}

/** How many of a tenant's cloud items sandbox workers are serving now. */
export interface ServingTenant {
  tenant: TenantIds;
  serving: number;
}

const key = (tenant: TenantIds) => `${tenant.organization_id}\u0000${tenant.workspace_id}`;

/**
 * The order in which tenants with queued cloud items are offered the next free sandbox worker:
 * the tenant with the fewest items being served first, ties by the oldest queued item, then by
 * tenant (so equal inputs always give one order). A tenant's backlog does not count, only what
 * it holds: workers go round the tenants that have work waiting, so a tenant with thousands of
 * sessions queued delays another tenant's session by no more than the wait for one worker to free
 * up. Among a tenant's own items the oldest goes first (the caller's query).
 */
export function claimOrder(waiting: readonly WaitingTenant[], serving: readonly ServingTenant[]): TenantIds[] {
  const held = new Map(serving.map((s) => [key(s.tenant), s.serving]));
  return [...waiting]
    .sort(
      (a, b) =>
        (held.get(key(a.tenant)) ?? 0) - (held.get(key(b.tenant)) ?? 0) ||
        a.oldestQueuedAt.getTime() - b.oldestQueuedAt.getTime() ||
        (key(a.tenant) < key(b.tenant) ? -1 : key(a.tenant) > key(b.tenant) ? 1 : 0),
    )
    .map((w) => w.tenant);
}
