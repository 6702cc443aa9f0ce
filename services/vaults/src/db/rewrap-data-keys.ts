import { and, asc, eq, gt, ne } from 'drizzle-orm';
import type { Database } from '../../../../shared/db/connect';
import { rewrapDataKey } from '../../../../shared/crypto/envelope';
import type { MasterKeyRing } from '../../../../shared/crypto/master-key-ring';
import type { Logger } from '../../../../shared/log/logger';
import { vaults } from './schema';

export interface RewrapResult {
  /** Data keys now wrapped by the active master key. */
  rewrapped: number;
  /** Rows that changed or vanished while being re-wrapped (deleted vaults); nothing to do. */
  skipped: number;
  /** Data keys whose master key is not configured, or that did not authenticate. */
  failed: number;
}

/**
 * Re-wraps every vault data key not yet under the active master key, one batch per transaction.
 * Safe while the service runs: one pass in id order (so it always ends, even if an older replica
 * keeps wrapping with a previous key), and each row is replaced only if it still holds what was
 * read, so a vault deleted meanwhile stays deleted. The data keys themselves do not change, so
 * no credential is re-encrypted.
 */
export async function rewrapDataKeys(
  db: Database,
  keys: MasterKeyRing,
  options: { batchSize: number; logger: Logger },
): Promise<RewrapResult> {
  const result: RewrapResult = { rewrapped: 0, skipped: 0, failed: 0 };
  let after = '';
  for (;;) {
    const batch = await db
      .select({ id: vaults.id, dataKeyId: vaults.dataKeyId, wrappedDataKey: vaults.wrappedDataKey })
      .from(vaults)
      .where(and(ne(vaults.dataKeyId, keys.activeKeyId), gt(vaults.id, after)))
      .orderBy(asc(vaults.id))
      .limit(options.batchSize);
    if (batch.length === 0) return result;
    after = batch[batch.length - 1].id;
    await db.transaction(async (tx) => {
      for (const row of batch) {
        if (!keys.has(row.dataKeyId)) {
          result.failed++;
          options.logger.error('data key wrapped by an unconfigured master key', { vault_id: row.id, data_key_id: row.dataKeyId });
          continue;
        }
        let next;
        try {
          next = rewrapDataKey(keys, { keyId: row.dataKeyId, wrapped: row.wrappedDataKey }, row.id);
        } catch {
          result.failed++;
          options.logger.error('data key did not authenticate', { vault_id: row.id, data_key_id: row.dataKeyId });
          continue;
        }
        const [update] = await tx
          .update(vaults)
          .set({ dataKeyId: next.keyId, wrappedDataKey: next.wrapped })
          .where(
            and(eq(vaults.id, row.id), eq(vaults.dataKeyId, row.dataKeyId), eq(vaults.wrappedDataKey, row.wrappedDataKey)),
          );
        if ((update as { affectedRows: number }).affectedRows === 1) result.rewrapped++;
        else result.skipped++;
      }
    });
    options.logger.info('rewrap batch done', { ...result, through: after });
  }
}
