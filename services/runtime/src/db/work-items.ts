import { and, asc, count, eq, inArray, isNull, lt, lte, min, or } from 'drizzle-orm';
import type { Executor } from '@shared/db/executor';
import { findOwnedRow } from '@shared/db/find-owned-row';
import { keysetAfter, newestFirst, readPage, type PageRequest } from '@shared/db/keyset-page';
import { ownedBy } from '@shared/db/owned-by';
import { newId } from '@shared/ids/ids';
import type { PagePosition } from '@shared/schema/common';
import type { Tenant } from '@shared/schema/tenant';
import type { Work } from '@shared/schema/work';
import { workItems, type WorkItemRow } from './schema';

type Owner = Pick<Tenant, 'organization_id' | 'workspace_id'>;

/** The session's item that is not stopped yet, if any: a session has at most one worker at a time. */
export async function findLiveWorkOfSession(db: Executor, sessionId: string): Promise<WorkItemRow | undefined> {
  const [row] = await db
    .select()
    .from(workItems)
    .where(and(eq(workItems.sessionId, sessionId), inArray(workItems.state, ['queued', 'starting', 'active', 'stopping'])))
    .limit(1);
  return row;
}

/** Queues an item for the session unless it has a live one (a worker serving it, or one waiting). */
export async function queueSessionWork(db: Executor, owner: Owner, environmentId: string, sessionId: string, now: Date): Promise<void> {
  if (await findLiveWorkOfSession(db, sessionId)) return;
  await insertWorkItem(db, owner, environmentId, sessionId, now);
}

async function insertWorkItem(db: Executor, owner: Owner, environmentId: string, sessionId: string, now: Date): Promise<WorkItemRow> {
  const row: WorkItemRow = {
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
  };
  await db.insert(workItems).values(row);
  return row;
}

/** The tenant's item of this environment, or undefined (missing, another tenant's or another environment's). */
export async function findWorkItem(db: Executor, owner: Owner, environmentId: string, id: string, options: { lock?: boolean } = {}) {
  const row = await findOwnedRow(db, workItems, owner, id, options);
  return row && row.environmentId === environmentId ? row : undefined;
}

export async function updateWorkItem(db: Executor, row: WorkItemRow, change: Partial<WorkItemRow>): Promise<WorkItemRow> {
  await db.update(workItems).set(change).where(eq(workItems.id, row.id));
  return { ...row, ...change };
}

/**
 * The item a poll hands out, locked in the caller's transaction: the oldest queued item no other
 * poll holds, or, with `reclaimBefore`, one whose worker went silent before then (its lease lapsed).
 * SKIP LOCKED so concurrent polls each take a different item without waiting on one another.
 */
export async function lockNextWorkItem(
  tx: Executor,
  owner: Owner,
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
    .where(and(ownedBy(workItems, owner), eq(workItems.environmentId, environmentId), lapsed ? or(queued, lapsed) : queued))
    .orderBy(asc(workItems.createdAt), asc(workItems.id))
    .limit(1)
    .for('update', { skipLocked: true });
  return row;
}

/** `work.stats`: items waiting (queued) and being served (starting, active, stopping), and the oldest waiting. */
export async function workQueueStats(db: Executor, owner: Owner, environmentId: string) {
  const rows = await db
    .select({ state: workItems.state, n: count(), oldest: min(workItems.createdAt) })
    .from(workItems)
    .where(and(ownedBy(workItems, owner), eq(workItems.environmentId, environmentId), inArray(workItems.state, ['queued', 'starting', 'active', 'stopping'])))
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
  owner: Owner,
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
