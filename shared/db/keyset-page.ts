import { and, desc, eq, lt, lte, or, type SQL } from 'drizzle-orm';
import type { MySqlColumn } from 'drizzle-orm/mysql-core';
import type { PagePosition } from '../schema/common';

/** Every paginated table sorts on these two columns (created_at DATETIME(3), then id). */
export interface KeysetColumns {
  createdAt: MySqlColumn;
  id: MySqlColumn;
}

/**
 * Rows strictly after `after` in newest-first order, as `created_at <= ? AND (created_at < ? OR
 * (created_at = ? AND id < ?))`. The expanded form, not a row comparison `(created_at, id) < (?, ?)`,
 * which MariaDB serves from the index prefix only (reading the whole tenant at depth); the
 * redundant first bound is a plain range every server seeks to.
 */
export function keysetAfter(table: KeysetColumns, after: PagePosition | null): SQL | undefined {
  if (!after) return undefined;
  const at = new Date(after.created_at);
  return and(lte(table.createdAt, at), or(lt(table.createdAt, at), and(eq(table.createdAt, at), lt(table.id, after.id))));
}

export const newestFirst = (table: KeysetColumns) => [desc(table.createdAt), desc(table.id)];

/**
 * Lists fetch `limit + 1` rows: the extra one only says that another page exists, and the last
 * row kept is where the next page starts.
 */
export function splitPage<R extends { createdAt: Date; id: string }>(rows: R[], limit: number): { rows: R[]; next: PagePosition | null } {
  const kept = rows.slice(0, limit);
  const last = kept[kept.length - 1];
  return { rows: kept, next: rows.length > limit && last ? { created_at: last.createdAt.toISOString(), id: last.id } : null };
}

/** `splitPage`, with each kept row turned into its API form. */
export function toPage<R extends { createdAt: Date; id: string }, T>(
  rows: R[],
  limit: number,
  present: (row: R) => T,
): { data: T[]; next: PagePosition | null } {
  const page = splitPage(rows, limit);
  return { data: page.rows.map(present), next: page.next };
}
