import { gte, isNull, lte, type SQL } from 'drizzle-orm';
import type { MySqlColumn } from 'drizzle-orm/mysql-core';
import type { KeysetColumns } from '@shared/db/keyset-page';

/** Optional creation-time bounds and the archived filter most catalog lists share. */
export function listFilters(
  table: KeysetColumns & { archivedAt?: MySqlColumn },
  filters: { created_at_gte?: string; created_at_lte?: string; include_archived?: boolean },
): Array<SQL | undefined> {
  return [
    filters.created_at_gte === undefined ? undefined : gte(table.createdAt, new Date(filters.created_at_gte)),
    filters.created_at_lte === undefined ? undefined : lte(table.createdAt, new Date(filters.created_at_lte)),
    table.archivedAt && filters.include_archived === false ? isNull(table.archivedAt) : undefined,
  ];
}
