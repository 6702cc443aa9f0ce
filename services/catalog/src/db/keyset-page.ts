import { and, desc, eq, gte, isNull, lt, lte, or, type SQL } from 'drizzle-orm';
import type { MySqlColumn } from 'drizzle-orm/mysql-core';
import type { PagePosition } from '../../../../shared/schema/common';

interface Sortable {
  createdAt: MySqlColumn;
  id: MySqlColumn;
}

/**
 * Rows strictly after `after` in newest-first order. Written in the expanded form rather than a
 * row comparison, which MySQL cannot always serve from the (tenant, created_at, id) index.
 */
export function keysetAfter(table: Sortable, after: PagePosition | null): SQL | undefined {
  if (!after) return undefined;
  const createdAt = new Date(after.created_at);
  return or(lt(table.createdAt, createdAt), and(eq(table.createdAt, createdAt), lt(table.id, after.id)));
}

export const newestFirst = (table: Sortable) => [desc(table.createdAt), desc(table.id)];

/** Optional creation-time bounds and the archived filter most lists share. */
export function listFilters(
  table: Sortable & { archivedAt?: MySqlColumn },
  filters: { created_at_gte?: string; created_at_lte?: string; include_archived?: boolean },
): Array<SQL | undefined> {
  return [
    filters.created_at_gte === undefined ? undefined : gte(table.createdAt, new Date(filters.created_at_gte)),
    filters.created_at_lte === undefined ? undefined : lte(table.createdAt, new Date(filters.created_at_lte)),
    table.archivedAt && filters.include_archived === false ? isNull(table.archivedAt) : undefined,
  ];
}

/** Rows were fetched with limit + 1: the extra one only says that another page exists. */
export function toPage<R extends { createdAt: Date; id: string }, T>(
  rows: R[],
  limit: number,
  present: (row: R) => T,
): { data: T[]; next: PagePosition | null } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    data: page.map(present),
    next: rows.length > limit && last ? { created_at: last.createdAt.toISOString(), id: last.id } : null,
  };
}
