import { and, asc, count, eq, inArray, isNull, lt, lte, min, or } from 'drizzle-orm';
import type { Database } from '@shared/db/connect';
import type { Executor } from '@shared/db/executor';
import { findOwnedRow } from '@shared/db/find-owned-row';
import { keysetAfter, newestFirst, readPage, type PageRequest } from '@shared/db/keyset-page';
import { ownedBy } from '@shared/db/owned-by';
import { newId } from '@shared/ids/ids';
import type { PagePosition } from '@shared/schema/common';
import type { TenantIds } from '@shared/schema/tenant';
import type { Work, WorkPool } from '@shared/schema/work';
import type { ServingTenant, WaitingTenant } from '../domain/work-claims';
import { settleLapsedStop, stop } from '../domain/work-lifecycle';
import { workItems, type WorkItemRow } from './schema';

/** The session's item that is not stopped yet, if any: a session has at most one worker at a time. */
export async function findLiveWorkOfSession(db: Executor, sessionId: string, options: { lock?: boolean } = {}): Promise<WorkItemRow | undefined> {
  const query = db
    .select()
    .from(workItems)
    .where(and(eq(workItems.sessionId, sessionId), inArray(workItems.state, ['queued', 'starting', 'active', 'stopping'])))
    .limit(1);
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/**
 * The session's live item, once one left `stopping` by a worker that died is stopped
 * (domain/work-lifecycle.ts): without that, such an item would count as live for ever.
 */
async function settledLiveWork(db: Executor, sessionId: string, now: Date): Promise<WorkItemRow | undefined> {
  const live = await findLiveWorkOfSession(db, sessionId);
  if (!live) return undefined;
  const settled = settleLapsedStop(live, now);
  if (!settled) return live;
  await updateWorkItem(db, live, settled);
  return undefined;
}

/** Whether the session's worker was told to stop and has not finished stopping (its lease not lapsed either). */
export async function sessionWorkStopping(db: Executor, sessionId: string, now: Date): Promise<boolean> {
  return (await settledLiveWork(db, sessionId, now))?.state === 'stopping';
}

/**
 * Queues an item for the session unless it has a live one (a worker serving it, or one waiting),
 * in the pool of the environment's type: `queued`, `live`, or `stopping` when the live one is
 * still being stopped (a new item must wait for it: two workers would run the same calls). The
 * pool is asked for only when an item is queued: a session waiting on its worker is driven again
 * at every notice, and most find its item there.
 */
export async function queueSessionWork(
  db: Executor,
  owner: TenantIds,
  environmentId: string,
  sessionId: string,
  now: Date,
  poolOf: () => Promise<WorkPool>,
): Promise<'queued' | 'live' | 'stopping'> {
  const live = await settledLiveWork(db, sessionId, now);
  if (live) return live.state === 'stopping' ? 'stopping' : 'live';
  await insertWorkItem(db, owner, environmentId, sessionId, await poolOf(), now);
  return 'queued';
}

/**
 * Stops the session's live item, if any (an interrupt ended the turn, or the session ended):
 * one not yet served at once, one being served `stopping`, which its worker hears at its next
 * heartbeat and aborts its tools. Locked, so a concurrent heartbeat cannot write over the stop.
 */
export async function stopSessionWork(db: Database, sessionId: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const live = await findLiveWorkOfSession(tx, sessionId, { lock: true });
    if (live && live.state !== 'stopping') await updateWorkItem(tx, live, stop(live, false, now));
  });
}

async function insertWorkItem(db: Executor, owner: TenantIds, environmentId: string, sessionId: string, pool: WorkPool, now: Date): Promise<WorkItemRow> {
  const row = newWorkItem(owner, environmentId, sessionId, pool, now);
  await db.insert(workItems).values(row);
  return row;
}

/** A session's item as it is first stored: queued, with no worker, and nothing acknowledged, started or stopped yet. */
export function newWorkItem(owner: TenantIds, environmentId: string, sessionId: string, pool: WorkPool, now: Date): WorkItemRow {
  return {
    id: newId('work'),
    organizationId: owner.organization_id,
    workspaceId: owner.workspace_id,
    environmentId,
    sessionId,
    state: 'queued',
    metadata: {},
    workerId: null,
    createdAt: now,
    acknowledgedAt: null,
    startedAt: null,
    latestHeartbeatAt: null,
    leaseExpiresAt: null,
    stopRequestedAt: null,
    stoppedAt: null,
    pool,
  };
}

/** The tenant's item of this environment, or undefined (missing, another tenant's or another environment's). */
export async function findWorkItem(db: Executor, owner: TenantIds, environmentId: string, id: string, options: { lock?: boolean } = {}) {
  const row = await findOwnedRow(db, workItems, owner, id, options);
  return row && row.environmentId === environmentId ? row : undefined;
}

/** Any tenant's item by its id (ids are unique across tenants), for the system calls of the sandbox workers. */
export async function findWorkItemById(db: Executor, id: string, options: { lock?: boolean } = {}): Promise<WorkItemRow | undefined> {
  const query = db.select().from(workItems).where(eq(workItems.id, id));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

export async function updateWorkItem(db: Executor, row: WorkItemRow, change: Partial<WorkItemRow>): Promise<WorkItemRow> {
  await db.update(workItems).set(change).where(eq(workItems.id, row.id));
  return { ...row, ...change };
}

/**
 * The item a poll hands out, locked in the caller's transaction: the oldest queued item no other
 * poll holds, or, with `reclaimBefore`, one whose worker went silent before then (its lease lapsed).
 * SKIP LOCKED so concurrent polls each take a different item without waiting on one another.
 * Self-hosted items only: a cloud environment's items are the sandbox workers' (claim), whoever polls.
 */
export async function lockNextWorkItem(
  tx: Executor,
  owner: TenantIds,
  environmentId: string,
  now: Date,
  reclaimBefore: Date | undefined,
): Promise<WorkItemRow | undefined> {
  const queued = and(eq(workItems.state, 'queued'), or(isNull(workItems.leaseExpiresAt), lte(workItems.leaseExpiresAt, now)));
  const lapsed = reclaimBefore
    ? and(inArray(workItems.state, ['starting', 'active']), lt(workItems.leaseExpiresAt, now), lt(workItems.leaseExpiresAt, reclaimBefore))
    : undefined;
  const [row] = await tx
    .select()
    .from(workItems)
    .where(
      and(
        ownedBy(workItems, owner),
        eq(workItems.environmentId, environmentId),
        eq(workItems.pool, 'self_hosted'),
        lapsed ? or(queued, lapsed) : queued,
      ),
    )
    .orderBy(asc(workItems.createdAt), asc(workItems.id))
    .limit(1)
    .for('update', { skipLocked: true });
  return row;
}

const SERVED_STATES = ['starting', 'active', 'stopping'] as const;

/**
 * The cloud queue as the claim's fairness rule reads it (domain/work-claims.ts): each tenant's
 * oldest queued item (a loose scan of work_items_tenant_pool: one probe per tenant, however many
 * items a tenant has queued), and how many items each tenant has being served (work_items_pool:
 * one entry per busy sandbox worker). Neither reads a row.
 */
export async function readCloudQueue(tx: Executor): Promise<{ waiting: WaitingTenant[]; serving: ServingTenant[] }> {
  const [waiting, serving] = await Promise.all([
    tx
      .select({ organization_id: workItems.organizationId, workspace_id: workItems.workspaceId, oldestQueuedAt: min(workItems.createdAt) })
      .from(workItems)
      .where(and(eq(workItems.pool, 'cloud'), eq(workItems.state, 'queued')))
      .groupBy(workItems.organizationId, workItems.workspaceId),
    tx
      .select({ organization_id: workItems.organizationId, workspace_id: workItems.workspaceId, serving: count() })
      .from(workItems)
      .where(and(eq(workItems.pool, 'cloud'), inArray(workItems.state, [...SERVED_STATES])))
      .groupBy(workItems.organizationId, workItems.workspaceId),
  ]);
  return {
    waiting: waiting.map((w) => ({ tenant: { organization_id: w.organization_id, workspace_id: w.workspace_id }, oldestQueuedAt: w.oldestQueuedAt! })),
    serving: serving.map((s) => ({ tenant: { organization_id: s.organization_id, workspace_id: s.workspace_id }, serving: s.serving })),
  };
}

/** The tenant's oldest queued cloud item no concurrent claim holds, locked in the caller's transaction. */
export async function lockOldestQueuedCloudItem(tx: Executor, owner: TenantIds): Promise<WorkItemRow | undefined> {
  const [row] = await tx
    .select()
    .from(workItems)
    .where(and(eq(workItems.pool, 'cloud'), eq(workItems.state, 'queued'), ownedBy(workItems, owner)))
    .orderBy(asc(workItems.createdAt), asc(workItems.id))
    .limit(1)
    .for('update', { skipLocked: true });
  return row;
}

/**
 * A cloud item whose sandbox worker went silent (its lease lapsed before `now`), locked; the
 * longest lapsed first. Found by a plain read, then locked by id and checked again: a locking
 * read would lock every item being served that it scans (the lease is not in the index), and each
 * claim, every 200 ms of every idle worker, would hold up the heartbeats of all of them.
 */
export async function lockLapsedCloudItem(tx: Executor, now: Date): Promise<WorkItemRow | undefined> {
  const lapsed = and(eq(workItems.pool, 'cloud'), inArray(workItems.state, ['starting', 'active']), lt(workItems.leaseExpiresAt, now));
  const [candidate] = await tx
    .select({ id: workItems.id })
    .from(workItems)
    .where(lapsed)
    .orderBy(asc(workItems.leaseExpiresAt), asc(workItems.id))
    .limit(1);
  if (!candidate) return undefined;
  const [row] = await tx
    .select()
    .from(workItems)
    .where(and(eq(workItems.id, candidate.id), lapsed))
    .for('update', { skipLocked: true });
  return row;
}

/** Cloud items waiting for a sandbox worker and being served, over every tenant: the runtime's autoscaling gauge. */
export async function countCloudWork(db: Executor): Promise<{ queued: number; serving: number }> {
  const rows = await db
    .select({ state: workItems.state, n: count() })
    .from(workItems)
    .where(and(eq(workItems.pool, 'cloud'), inArray(workItems.state, ['queued', ...SERVED_STATES])))
    .groupBy(workItems.state);
  return {
    queued: rows.find((r) => r.state === 'queued')?.n ?? 0,
    serving: rows.filter((r) => r.state !== 'queued').reduce((sum, r) => sum + r.n, 0),
  };
}

/** `work.stats`: items waiting (queued) and being served (starting, active, stopping), and the oldest waiting. */
export async function workQueueStats(db: Executor, owner: TenantIds, environmentId: string) {
  const rows = await db
    .select({ state: workItems.state, n: count(), oldest: min(workItems.createdAt) })
    .from(workItems)
    .where(and(ownedBy(workItems, owner), eq(workItems.environmentId, environmentId), inArray(workItems.state, ['queued', ...SERVED_STATES])))
    .groupBy(workItems.state);
  const queued = rows.find((r) => r.state === 'queued');
  return {
    depth: queued?.n ?? 0,
    pending: rows.filter((r) => r.state !== 'queued').reduce((sum, r) => sum + r.n, 0),
    oldestQueuedAt: queued?.oldest ?? null,
  };
}

/** One page of an environment's items, newest first. */
export async function listWorkPage(
  db: Executor,
  owner: TenantIds,
  request: PageRequest<{ environment_id: string }>,
  present: (row: WorkItemRow) => Work,
): Promise<{ data: Work[]; next: PagePosition | null }> {
  return readPage(
    (from, limit) =>
      db
        .select()
        .from(workItems)
        .where(and(ownedBy(workItems, owner), eq(workItems.environmentId, request.filters.environment_id), keysetAfter(workItems, from)))
        .orderBy(...newestFirst(workItems))
        .limit(limit),
    request.after,
    request.limit,
    present,
  );
}
