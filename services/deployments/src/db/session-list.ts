import { and, eq, inArray, isNotNull, isNull, or, type SQL } from 'drizzle-orm';
import type { MySqlColumn } from 'drizzle-orm/mysql-core';
import type { Executor } from '@shared/db/executor';
import { inListOrder, keysetAfter, readWithinBudget } from '@shared/db/keyset-page';
import { archivedConditions, createdAtConditions } from '@shared/db/list-filters';
import { ownedBy } from '@shared/db/owned-by';
import type { PagePosition } from '@shared/schema/common';
import type { SessionListFilters, SessionListOrder } from '@shared/schema/session';
import type { Tenant } from '@shared/schema/tenant';
import { ARCHIVED_SESSION_STATUS } from '../domain/present';
import { SESSION_LIST_INDEXES, SESSION_MEMORY_STORE_INDEX, sessionMemoryStores, sessions, type SessionRow } from './schema';

// The sessions list: keyset paging in both orders and both directions (shared/db/keyset-page.ts
// has both orders), each filter set read from the index that serves it.

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
