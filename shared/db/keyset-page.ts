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

/** Where a page that ends (or starts) at this row continues. */
const positionOf = (row: { createdAt: Date; id: string }): PagePosition => ({ created_at: row.createdAt.toISOString(), id: row.id });

/**
 * Lists fetch `limit + 1` rows: the extra one only says that another page exists, and the last
 * row kept is where the next page starts.
 */
export function splitPage<R extends { createdAt: Date; id: string }>(rows: R[], limit: number): { rows: R[]; next: PagePosition | null } {
  const kept = rows.slice(0, limit);
  const last = kept[kept.length - 1];
  return { rows: kept, next: rows.length > limit && last ? positionOf(last) : null };
}

/**
 * The most a page's items may weigh as JSON, whatever `limit` says (`limit` is a maximum):
 * twelve 7 MB deployments once made one `?limit=100` page 84 MB and took the service to 2 GB.
 * Four MiB is a hundred items of 40 KB, far more than ordinary resources weigh, and more than
 * the largest single deployment the request limits allow (about 3 MiB), so a page of one is
 * within it too. A page always holds at least one item, so paging always moves on.
 */
export const PAGE_BYTE_BUDGET = 4 * 1024 * 1024;

/**
 * Turns a page's rows into their API form, one by one, until the next one would take the
 * items past `budget` bytes of JSON (`[a,b]`: the items, commas and brackets). Rows left out
 * start the following page: reading forward (`keep: 'first'`, every list's default) `next`
 * moves back to the last row kept; reading backward towards an anchor (`keep: 'last'`, a
 * `prev_page`) the rows nearest the anchor are kept and `prev` moves to the first row kept.
 */
export function presentWithinBudget<R extends { createdAt: Date; id: string }, T>(
  page: { rows: R[]; next: PagePosition | null; prev?: PagePosition | null },
  present: (row: R) => T,
  options: { keep?: 'first' | 'last'; budget?: number } = {},
): { data: T[]; next: PagePosition | null; prev: PagePosition | null } {
  const budget = options.budget ?? PAGE_BYTE_BUDGET;
  const fromEnd = options.keep === 'last';
  const order = fromEnd ? [...page.rows].reverse() : page.rows;
  const data: T[] = [];
  let bytes = 1; // the closing bracket; each item adds itself and its opening bracket or comma
  for (const row of order) {
    const item = present(row);
    const size = Buffer.byteLength(JSON.stringify(item)) + 1;
    if (data.length > 0 && bytes + size > budget) break;
    data.push(item);
    bytes += size;
  }
  if (fromEnd) data.reverse();
  const prev = page.prev ?? null;
  if (data.length === page.rows.length) return { data, next: page.next, prev };
  if (fromEnd) return { data, next: page.next, prev: positionOf(page.rows[page.rows.length - data.length]) };
  return { data, next: positionOf(page.rows[data.length - 1]), prev };
}

/** `splitPage`, with each kept row turned into its API form, within the page byte budget. */
export function toPage<R extends { createdAt: Date; id: string }, T>(
  rows: R[],
  limit: number,
  present: (row: R) => T,
): { data: T[]; next: PagePosition | null } {
  const { data, next } = presentWithinBudget(splitPage(rows, limit), present);
  return { data, next };
}
