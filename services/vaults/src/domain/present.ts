import { toTimestamp } from '@shared/time/clock';
import type { Vault } from '@shared/schema/vault';
import type { VaultCredential } from '@shared/schema/vault-credential';
import type { VaultCredentialRow, VaultRow } from '../db/schema';

/** Rows as the API shows them. Neither the wrapped data key nor the sealed secret ever leaves here. */
export const presentVault = (row: VaultRow): Vault => ({
  type: 'vault',
  id: row.id,
  display_name: row.displayName,
  metadata: row.metadata,
  created_at: toTimestamp(row.createdAt),
  updated_at: toTimestamp(row.updatedAt),
  archived_at: row.archivedAt ? toTimestamp(row.archivedAt) : null,
});

export const presentCredential = (row: VaultCredentialRow): VaultCredential => ({
  type: 'vault_credential',
  id: row.id,
  vault_id: row.vaultId,
  display_name: row.displayName,
  auth: row.auth,
  metadata: row.metadata,
  created_at: toTimestamp(row.createdAt),
  updated_at: toTimestamp(row.updatedAt),
  archived_at: row.archivedAt ? toTimestamp(row.archivedAt) : null,
});
