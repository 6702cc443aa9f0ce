import { and, asc, eq, getTableColumns, gt, ne } from 'drizzle-orm';
import type { MySqlColumn, MySqlTable } from 'drizzle-orm/mysql-core';
import type { Database } from '../db/connect';
import type { Logger } from '../log/logger';
import { rewrapDataKey } from './envelope';
import type { MasterKeyRing } from './master-key-ring';

/** Where an owner's wrapped data key lives: the owner id is also the key's associated data. */
export interface WrappedDataKeyColumns {
  table: MySqlTable;
  ownerId: MySqlColumn;
  keyId: MySqlColumn;
  wrapped: MySqlColumn;
}

export interface RewrapResult {
  /** Data keys now wrapped by the active master key. */
  rewrapped: number;
  /** Rows that changed or vanished while being re-wrapped (deleted meanwhile); nothing to do. */
  skipped: number;
  /** Data keys whose master key is not configured, or that did not authenticate. */
  failed: number;
}

type WrappedRow = { ownerId: string; keyId: string; wrapped: string };

/**
 * Re-wraps every data key not yet under the active master key, one batch per transaction.
 * Safe while the services run: one pass in owner-id order (so it always ends, even if an older
 * replica keeps wrapping with a previous key), and each row is replaced only if it still holds
 * what was read, so an owner deleted or re-keyed meanwhile is left alone. The data keys do not
 * change, so nothing sealed under them is re-encrypted. Rows without a key (NULL) are skipped
 * by the query itself.
 */
export async function rewrapDataKeys(
  db: Database,
  keys: MasterKeyRing,
  target: WrappedDataKeyColumns,
  options: { batchSize: number; logger: Logger },
): Promise<RewrapResult> {
  const result: RewrapResult = { rewrapped: 0, skipped: 0, failed: 0 };
  // update().set() takes the table's property names, not the SQL column names.
  const propertyOf = (column: MySqlColumn) => Object.entries(getTableColumns(target.table)).find(([, c]) => c === column)![0];
  const keyIdProperty = propertyOf(target.keyId);
  const wrappedProperty = propertyOf(target.wrapped);
  let after = '';
  for (;;) {
    const batch = (await db
      .select({ ownerId: target.ownerId, keyId: target.keyId, wrapped: target.wrapped })
      .from(target.table)
      .where(and(ne(target.keyId, keys.activeKeyId), gt(target.ownerId, after)))
      .orderBy(asc(target.ownerId))
      .limit(options.batchSize)) as WrappedRow[];
    if (batch.length === 0) return result;
    after = batch[batch.length - 1].ownerId;
    await db.transaction(async (tx) => {
      for (const row of batch) {
        if (!keys.has(row.keyId)) {
          result.failed++;
          options.logger.error('data key wrapped by an unconfigured master key', { owner_id: row.ownerId, data_key_id: row.keyId });
          continue;
        }
        let next;
        try {
          next = rewrapDataKey(keys, { keyId: row.keyId, wrapped: row.wrapped }, row.ownerId);
        } catch {
          result.failed++;
          options.logger.error('data key did not authenticate', { owner_id: row.ownerId, data_key_id: row.keyId });
          continue;
        }
        const [update] = await tx
          .update(target.table)
          .set({ [keyIdProperty]: next.keyId, [wrappedProperty]: next.wrapped } as never)
          .where(and(eq(target.ownerId, row.ownerId), eq(target.keyId, row.keyId), eq(target.wrapped, row.wrapped)));
        if ((update as unknown as { affectedRows: number }).affectedRows === 1) result.rewrapped++;
        else result.skipped++;
      }
    });
    options.logger.info('rewrap batch done', { ...result, through: after });
  }
}
