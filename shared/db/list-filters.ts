import { gt, gte, isNull, lt, lte, type Placeholder, type SQL } from 'drizzle-orm';
import type { MySqlColumn } from 'drizzle-orm/mysql-core';

/** The creation-time bounds a list may take (shared/schema/common.ts `CreatedAtBounds`). */
export interface CreatedAtFilters {
  created_at_gt?: string | Placeholder;
  created_at_gte?: string | Placeholder;
  created_at_lt?: string | Placeholder;
  created_at_lte?: string | Placeholder;
}

/**
 * A list's creation-time bounds as conditions on `column` (the column its keyset reads):
 * `gt`/`lt` exclusive, `gte`/`lte` inclusive; an absent bound adds nothing. A placeholder
 * (a prepared query's) stands for a Date given when it runs.
 */
export function createdAtConditions(column: MySqlColumn, filters: CreatedAtFilters): SQL[] {
  const bounds: Array<[string | Placeholder | undefined, typeof gt]> = [
    [filters.created_at_gt, gt],
    [filters.created_at_gte, gte],
    [filters.created_at_lt, lt],
    [filters.created_at_lte, lte],
  ];
  return bounds
    .filter(([at]) => at !== undefined)
    .map(([at, compare]) => compare(column, typeof at === 'string' ? new Date(at) : at!));
}

/** Archived rows are left out of a list unless it asks for them (`include_archived`). */
export const archivedConditions = (archivedAt: MySqlColumn, includeArchived: boolean): SQL[] =>
  includeArchived ? [] : [isNull(archivedAt)];

/** The filters every archivable list shares: creation-time bounds and `include_archived`. */
export const archivableListConditions = (
  table: { createdAt: MySqlColumn; archivedAt: MySqlColumn },
  filters: CreatedAtFilters & { include_archived: boolean },
): SQL[] => [...createdAtConditions(table.createdAt, filters), ...archivedConditions(table.archivedAt, filters.include_archived)];
