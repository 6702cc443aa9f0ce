import { toTimestamp } from './clock';

/**
 * An archivable row's lifecycle columns (shared/db/columns.ts `lifecycleColumns`) as the API
 * shows them: when it was created, last changed and archived (null while it is not).
 */
export const lifecycleTimestamps = (row: { createdAt: Date; updatedAt: Date; archivedAt: Date | null }) => ({
  created_at: toTimestamp(row.createdAt),
  updated_at: toTimestamp(row.updatedAt),
  archived_at: row.archivedAt ? toTimestamp(row.archivedAt) : null,
});
