import { and, asc, desc, eq, gt, gte, lt, lte, or, type SQL } from 'drizzle-orm';
import type { MySqlColumn } from 'drizzle-orm/mysql-core';
import type { PagePosition } from '../schema/common';

/** Every paginated table sorts on these two columns (created_at DATETIME(3), then id). */
export interface KeysetColumns {
  createdAt: MySqlColumn;
  id: MySqlColumn;
}

export type ListOrder = 'asc' | 'desc';

/**
 * Rows strictly after `after` in the list's order; newest first (`desc`) it reads
 * `created_at <= ? AND (created_at < ? OR (created_at = ? AND id < ?))`, and `asc` mirrors it.
 * The expanded form, not a row comparison `(created_at, id) < (?, ?)`, which MariaDB serves from
 * the index prefix only (reading the whole tenant at depth); the redundant first bound is a plain
 * range every server seeks to.
 */
export function keysetAfter(table: KeysetColumns, after: PagePosition | null, order: ListOrder = 'desc'): SQL | undefined {
  if (!after) return undefined;
  const at = new Date(after.created_at);
  if (order === 'asc') {
    return and(gte(table.createdAt, at), or(gt(table.createdAt, at), and(eq(table.createdAt, at), gt(table.id, after.id))));
  }
  return and(lte(table.createdAt, at), or(lt(table.createdAt, at), and(eq(table.createdAt, at), lt(table.id, after.id))));
}

export const newestFirst = (table: KeysetColumns) => [desc(table.createdAt), desc(table.id)];

export const inListOrder = (table: KeysetColumns, order: ListOrder) =>
  order === 'desc' ? newestFirst(table) : [asc(table.createdAt), asc(table.id)];

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
