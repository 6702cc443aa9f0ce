import { and, type SQL } from 'drizzle-orm';
import type { MySqlTable } from 'drizzle-orm/mysql-core';
import type { PagePosition } from '../schema/common';
import type { Executor } from './executor';
import { keysetAfter, newestFirst, readPage, type KeysetColumns } from './keyset-page';

/**
 * One forward page of a table's rows that match `where`, newest first, read chunk by chunk
 * within the page byte budget (`readPage`). For the plain lists: one table, no join, no index
 * hint; a list that needs either writes its own chunk reader for `readPage`.
 */
export function readNewestFirstPage<T extends MySqlTable & KeysetColumns, I>(
  db: Executor,
  table: T,
  where: Array<SQL | undefined>,
  request: { after: PagePosition | null; limit: number },
  present: (row: T['$inferSelect']) => I,
): Promise<{ data: I[]; next: PagePosition | null }> {
  const readChunk = async (from: PagePosition | null, count: number) => {
    const rows = await db
      .select()
      .from(table as MySqlTable)
      .where(and(...where, keysetAfter(table, from)))
      .orderBy(...newestFirst(table))
      .limit(count);
    // Rows of `table`, which has the keyset columns; drizzle cannot infer that through the generic.
    return rows as unknown as Array<T['$inferSelect'] & { createdAt: Date; id: string }>;
  };
  return readPage(readChunk, request.after, request.limit, present);
}
