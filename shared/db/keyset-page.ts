import { and, asc, desc, eq, gt, gte, lt, lte, or, type Placeholder, type SQL } from 'drizzle-orm';
import type { MySqlColumn } from 'drizzle-orm/mysql-core';
import type { PagePosition } from '../schema/common';
import type { TenantIds } from '../schema/tenant';
import type { Executor } from './executor';

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
export function keysetAfter(
  table: KeysetColumns,
  // Placeholders (a prepared query's) stand for the position's Date and id given when it runs.
  after: PagePosition | { created_at: Placeholder; id: Placeholder } | null,
  order: ListOrder = 'desc',
): SQL | undefined {
  if (!after) return undefined;
  const at = typeof after.created_at === 'string' ? new Date(after.created_at) : after.created_at;
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
 * The most a page's items may weigh as JSON, whatever `limit` says (`limit` is a maximum):
 * twelve 7 MB deployments once made one `?limit=100` page 84 MB and took the service to 2 GB.
 * Four MiB is a hundred items of 40 KB, far more than ordinary resources weigh, and more than
 * the largest single deployment the request limits allow (about 3 MiB), so a page of one is
 * within it too. A page always holds at least one item, so paging always moves on.
 */
export const PAGE_BYTE_BUDGET = 4 * 1024 * 1024;

/**
 * The most rows one query of a list reads (one more on the query that also tells whether more
 * follow). A page is read in chunks of these, so a list holds at most this many stored rows at
 * once, whatever `limit` says and however large rows are: reading `limit + 1` rows in one
 * query held up to 1,001 rows (100 deployments of 3 MiB are 300 MB) to return 4 MiB. Twenty
 * keeps a default page (20 items and the row that tells whether more follow) one query, the
 * common case, and bounds a request at 21 of the largest rows ever stored (about 63 MB).
 */
export const LIST_READ_CHUNK = 20;

/**
 * Up to `count` rows of a list strictly beyond `from` (from its start when null), in the list's
 * order: one query on the list's index (`keysetAfter` with `from`, `.limit(count)`).
 */
export type KeysetChunkReader<R> = (from: PagePosition | null, count: number) => Promise<R[]>;

/** What every forward list asks its db function for: its filters, a page size, and where to start. */
export interface PageRequest<F> {
  filters: F;
  limit: number;
  after: PagePosition | null;
}

/**
 * The shape of every db/ function that reads one page of a tenant's list: the caller's filters
 * and position in, each row presented as the handler says. Declared once, so each list states
 * only its own filters and row.
 */
export type TenantPageReader<F, R> = <T>(
  db: Executor,
  tenant: TenantIds,
  request: PageRequest<F>,
  present: (row: R) => T,
) => Promise<{ data: T[]; next: PagePosition | null }>;

/** A page as read: its items in reading order, where they start and end, and whether rows follow. */
export interface PageRead<T> {
  data: T[];
  /** The first and last item's positions; null on an empty page. */
  first: PagePosition | null;
  last: PagePosition | null;
  /** Whether a row follows the last item (so a page continues after `last`). */
  more: boolean;
}

/**
 * Reads one page beyond `from`: chunk by chunk, each query continuing right after the last row
 * of the one before, turning rows into their API form as they come, until `limit` items, the
 * byte budget (the next item would take the items' JSON, `[a,b]`, past it; the first item is
 * always kept) or the rows run out. A row read and not kept only says that more follow, and is
 * where the next page starts again. Read towards an anchor in reverse order, the items come
 * nearest the anchor first, so a backward page cut by the budget keeps the rows nearest it.
 */
export async function readWithinBudget<R extends { createdAt: Date; id: string }, T>(
  read: KeysetChunkReader<R>,
  from: PagePosition | null,
  limit: number,
  present: (row: R) => T,
  options: { budget?: number; chunk?: number } = {},
): Promise<PageRead<T>> {
  const budget = options.budget ?? PAGE_BYTE_BUDGET;
  const chunk = options.chunk ?? LIST_READ_CHUNK;
  const data: T[] = [];
  let first: PagePosition | null = null;
  let last: PagePosition | null = null;
  let bytes = 1; // the closing bracket; each item adds itself and its opening bracket or comma
  for (;;) {
    // The items still missing and one more to tell whether rows follow, in one query when that
    // is at most a chunk and one; otherwise a chunk, and the loop goes on.
    const wanted = limit - data.length + 1;
    const count = wanted <= chunk + 1 ? wanted : chunk;
    const rows = await read(last ?? from, count);
    for (const row of rows) {
      if (data.length === limit) return { data, first, last, more: true };
      const item = present(row);
      const size = Buffer.byteLength(JSON.stringify(item)) + 1;
      if (data.length > 0 && bytes + size > budget) return { data, first, last, more: true };
      data.push(item);
      bytes += size;
      last = positionOf(row);
      first ??= last;
    }
    if (rows.length < count) return { data, first, last, more: false };
  }
}

/** A forward page as every list replies it: `next` is the last item's position when rows follow it. */
export async function readPage<R extends { createdAt: Date; id: string }, T>(
  read: KeysetChunkReader<R>,
  after: PagePosition | null,
  limit: number,
  present: (row: R) => T,
): Promise<{ data: T[]; next: PagePosition | null }> {
  const page = await readWithinBudget(read, after, limit, present);
  return { data: page.data, next: page.more ? page.last : null };
}
