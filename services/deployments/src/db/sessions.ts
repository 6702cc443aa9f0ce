import { archivedConditions, createdAtConditions } from '@shared/db/list-filters';
import { and, eq, inArray, isNotNull, isNull, or, type SQL } from 'drizzle-orm';
import type { MySqlColumn } from 'drizzle-orm/mysql-core';
import { newEventEnvelope, recordEvents } from '@shared/bus/outbox';
import type { EventEnvelope } from '@shared/bus/event';
import type { Executor } from '@shared/db/executor';
import { findOwnedRow } from '@shared/db/find-owned-row';
import { inListOrder, keysetAfter, readWithinBudget } from '@shared/db/keyset-page';
import { ownedBy } from '@shared/db/owned-by';
import type { PagePosition } from '@shared/schema/common';
import { sessionEvents, type SessionListFilters, type SessionListOrder } from '@shared/schema/session';
import type { Tenant } from '@shared/schema/tenant';
import { ARCHIVED_SESSION_STATUS } from '../domain/present';
import { sessionCreatedEvent } from '../domain/session-create';
import { found } from '@shared/errors/api-error';
import type { Database } from '@shared/db/connect';
import type { SessionResource } from '@shared/schema/session';
import { sessionNotFound } from '../domain/not-found';
import { appendSessionEvents } from './session-log';
import { materialised, mountedMemoryStores } from '../domain/session-resources';
import { sessionArchivedRefusal, type SessionChange } from '../domain/session-update';
import { outbox, SESSION_LIST_INDEXES, SESSION_MEMORY_STORE_INDEX, sessionMemoryStores, sessions, sessionSecrets, type DeploymentRunRow, type SessionRow } from './schema';

/** Where a sessions page starts: after a position, before one, or at the start of the list. */
export type SessionPageAnchor = { after: PagePosition } | { before: PagePosition } | null;

export interface SessionPage<T> {
  /** The page's items in the list's order. */
  data: T[];
  /** Where the following page starts; null on the last page. */
  next: PagePosition | null;
  /** Where the preceding page ends; null on the first page. */
  prev: PagePosition | null;
}

export const findSession = (db: Executor, tenant: Tenant, id: string): Promise<SessionRow | undefined> =>
  findOwnedRow(db, sessions, tenant, id);

/** The tenant's session, locked (FOR UPDATE) until the transaction ends: every change of a session is made under it. */
export const lockSession = (tx: Executor, tenant: Tenant, id: string): Promise<SessionRow | undefined> =>
  findOwnedRow(tx, sessions, tenant, id, { lock: true });

/** A new session as it is recorded: the row, the fire's run when a fire created it, its sealed tokens. */
export interface NewSessionRecord {
  session: SessionRow;
  run: DeploymentRunRow | null;
  secrets: Array<{ resourceId: string; sealed: string }>;
}

/**
 * Records new sessions in the caller's transaction, one statement per table whatever their
 * number: the sessions, the memory stores they mount (what the memory_store_id filter pages
 * on), their initial events as the first of their logs, their sealed tokens and their
 * `sessions.created` events. The one write of every new
 * session, the API's and the fire's (db/runs.ts insertRuns) alike. Returns the events recorded.
 */
export async function recordNewSessions(tx: Executor, records: NewSessionRecord[]): Promise<EventEnvelope[]> {
  if (records.length === 0) return [];
  const rows = records.map((r) => r.session);
  await tx.insert(sessions).values(rows);
  const mounts = rows.flatMap((row) => mountsOf(row, mountedMemoryStores(row.resources)));
  if (mounts.length > 0) await tx.insert(sessionMemoryStores).values(mounts);
  // The initial events are the first events of every session's log (db/session-log.ts, the one appender).
  await appendSessionEvents(tx, rows.map((row) => ({ sessionId: row.id, events: row.initialEvents, at: row.createdAt })));
  const secrets = records.flatMap((r) => r.secrets.map((s) => ({ sessionId: r.session.id, ...s })));
  if (secrets.length > 0) await tx.insert(sessionSecrets).values(secrets);
  const envelopes = records.map(({ session, run }) =>
    newEventEnvelope(
      sessionEvents.created,
      { organization_id: session.organizationId, workspace_id: session.workspaceId },
      sessionCreatedEvent(session, run),
      session.createdAt,
    ),
  );
  await recordEvents(tx, outbox, envelopes);
  return envelopes;
}

const mountsOf = (row: SessionRow, storeIds: string[]) =>
  storeIds.map((memoryStoreId) => ({
    sessionId: row.id,
    memoryStoreId,
    organizationId: row.organizationId,
    workspaceId: row.workspaceId,
    sessionCreatedAt: row.createdAt,
  }));

/**
 * Writes a change of a locked session; when its resources change, the memory stores it mounts
 * follow (the rows of stores no longer mounted go, new ones come).
 */
export async function updateSession(tx: Executor, row: SessionRow, change: SessionChange): Promise<SessionRow> {
  await tx.update(sessions).set(change).where(eq(sessions.id, row.id));
  const next = { ...row, ...change };
  if (change.resources) {
    const before = new Set(mountedMemoryStores(row.resources));
    const after = new Set(mountedMemoryStores(change.resources));
    const gone = [...before].filter((id) => !after.has(id));
    const added = [...after].filter((id) => !before.has(id));
    if (gone.length > 0) {
      await tx.delete(sessionMemoryStores).where(and(eq(sessionMemoryStores.sessionId, row.id), inArray(sessionMemoryStores.memoryStoreId, gone)));
    }
    if (added.length > 0) await tx.insert(sessionMemoryStores).values(mountsOf(row, added));
  }
  return next;
}

/**
 * A change of an unarchived session's resources, in one transaction under the session's row
 * lock: `change` gets the row and its resources with their identities (materialised). Missing
 * (or another tenant's): 404; archived: the one archived refusal, naming `what`.
 */
export function changeSessionResources<R>(
  db: Database,
  tenant: Tenant,
  id: string,
  what: string,
  change: (tx: Executor, row: SessionRow, resources: SessionResource[]) => Promise<R>,
): Promise<R> {
  return db.transaction(async (tx) => {
    const row = found(await lockSession(tx, tenant, id), () => sessionNotFound(id));
    if (row.archivedAt) throw sessionArchivedRefusal(id, what);
    return change(tx, row, materialised(row.id, row.createdAt, row.resources));
  });
}

/** A token sealed for a resource of the session, replacing the one it had. */
export async function putSessionSecret(tx: Executor, sessionId: string, resourceId: string, sealed: string): Promise<void> {
  await tx.insert(sessionSecrets).values({ sessionId, resourceId, sealed }).onDuplicateKeyUpdate({ set: { sealed } });
}

export async function deleteSessionSecret(tx: Executor, sessionId: string, resourceId: string): Promise<void> {
  await tx.delete(sessionSecrets).where(and(eq(sessionSecrets.sessionId, sessionId), eq(sessionSecrets.resourceId, resourceId)));
}

/** A session and everything of it in this service's tables, for good (DELETE /v1/sessions/{id}). */
export async function deleteSessionRows(tx: Executor, id: string): Promise<void> {
  await tx.delete(sessionSecrets).where(eq(sessionSecrets.sessionId, id));
  await tx.delete(sessionMemoryStores).where(eq(sessionMemoryStores.sessionId, id));
  await tx.delete(sessions).where(eq(sessions.id, id));
}

// ---------------------------------------------------------------------------------------------
// Keyset paging in both orders and both directions (shared/db/keyset-page.ts has both orders).

const reverse = (order: SessionListOrder): SessionListOrder => (order === 'asc' ? 'desc' : 'asc');

/**
 * The index a filter set is served from: the narrowest equality filter with an index of its
 * own wins, the other filters are checked on the rows it yields. Several statuses at once use
 * the tenant-wide index: an IN over the status index would have to merge and sort every
 * matching row, where the tenant index reads in order and stops after one page.
 */
export function sessionListIndex(filters: SessionListFilters): string {
  if (filters.deployment_id !== undefined) return SESSION_LIST_INDEXES.deployment;
  if (filters.agent_id !== undefined) {
    return filters.agent_version !== undefined ? SESSION_LIST_INDEXES.agentVersion : SESSION_LIST_INDEXES.agent;
  }
  if (filters.statuses?.length === 1) return SESSION_LIST_INDEXES.status;
  return SESSION_LIST_INDEXES.all;
}

/** Every filter as a condition on `sessions`, creation-time bounds on `created` (the column the keyset reads). */
function filterConditions(tenant: Tenant, filters: SessionListFilters, created: MySqlColumn): SQL[] {
  const t = sessions;
  const conditions: SQL[] = [ownedBy(t, tenant)];
  if (filters.deployment_id !== undefined) conditions.push(eq(t.deploymentId, filters.deployment_id));
  if (filters.agent_id !== undefined) conditions.push(eq(t.agentId, filters.agent_id));
  if (filters.agent_version !== undefined) conditions.push(eq(t.agentVersion, filters.agent_version));
  if (filters.statuses !== undefined) {
    const stored = filters.statuses.length === 1 ? eq(t.status, filters.statuses[0]) : inArray(t.status, filters.statuses);
    // An archived session is listed with the status it is shown with (domain/present.ts), whatever its row says.
    if (!filters.include_archived) conditions.push(stored);
    else if (filters.statuses.includes(ARCHIVED_SESSION_STATUS)) conditions.push(or(and(stored, isNull(t.archivedAt)), isNotNull(t.archivedAt))!);
    else conditions.push(stored, isNull(t.archivedAt));
  }
  conditions.push(...archivedConditions(t.archivedAt, filters.include_archived));
  conditions.push(...createdAtConditions(created, filters));
  return conditions;
}

/**
 * Up to `count` sessions beyond `from` (or from the start) reading in `order`: one query, one
 * index seek. By memory store, the keyset runs on session_memory_stores' own index and each
 * row joins its session by primary key.
 */
async function readSessions(
  db: Executor,
  tenant: Tenant,
  filters: SessionListFilters,
  from: PagePosition | null,
  order: SessionListOrder,
  count: number,
): Promise<SessionRow[]> {
  if (filters.memory_store_id !== undefined) {
    const m = sessionMemoryStores;
    const keyset = { createdAt: m.sessionCreatedAt, id: m.sessionId };
    const conditions = [
      ownedBy(m, tenant),
      eq(m.memoryStoreId, filters.memory_store_id),
      ...filterConditions(tenant, filters, m.sessionCreatedAt),
    ];
    const beyond = from && keysetAfter(keyset, from, order);
    if (beyond) conditions.push(beyond);
    const rows = await db
      .select({ session: sessions })
      .from(m, { forceIndex: SESSION_MEMORY_STORE_INDEX })
      .innerJoin(sessions, eq(sessions.id, m.sessionId))
      .where(and(...conditions))
      .orderBy(...inListOrder(keyset, order))
      .limit(count);
    return rows.map((r) => r.session);
  }
  const conditions = filterConditions(tenant, filters, sessions.createdAt);
  const beyond = from && keysetAfter(sessions, from, order);
  if (beyond) conditions.push(beyond);
  return db
    .select()
    .from(sessions, { forceIndex: sessionListIndex(filters) })
    .where(and(...conditions))
    .orderBy(...inListOrder(sessions, order))
    .limit(count);
}

/**
 * One page of the tenant's sessions in the filters' order, read in chunks within the page byte
 * budget (shared/db/keyset-page.ts), each row turned into its API form by `present`. Forward
 * (the first page, or after a position) it reads on from there: rows beyond the page say a next
 * page exists. Backward (before a position) it reads the other way, nearest the anchor first, so
 * the rows kept are the ones nearest it, and turns them round: rows beyond say a page precedes
 * this one. A page reached from a position always has a neighbour on that side, the page it was
 * reached from.
 */
export async function listSessionPage<T>(
  db: Executor,
  tenant: Tenant,
  filters: SessionListFilters,
  limit: number,
  anchor: SessionPageAnchor,
  present: (row: SessionRow) => T,
): Promise<SessionPage<T>> {
  const order = filters.order;
  if (anchor && 'before' in anchor) {
    const readBack = (from: PagePosition | null, count: number) => readSessions(db, tenant, filters, from, reverse(order), count);
    const page = await readWithinBudget(readBack, anchor.before, limit, present);
    return { data: page.data.reverse(), prev: page.more ? page.last : null, next: page.first };
  }
  const from = anchor?.after ?? null;
  const readOn = (position: PagePosition | null, count: number) => readSessions(db, tenant, filters, position, order, count);
  const page = await readWithinBudget(readOn, from, limit, present);
  return { data: page.data, next: page.more ? page.last : null, prev: from && page.first };
}
