import { lifecycleTimestamps } from '@shared/time/lifecycle-timestamps';
import type { Vault } from '@shared/schema/vault';
import type { VaultCredential } from '@shared/schema/vault-credential';
import type { VaultCredentialRow, VaultRow } from '../db/schema';

/** Rows as the API shows them. Neither the wrapped data key nor the sealed secret ever leaves here. */
export const presentVault = (row: VaultRow): Vault => ({
  type: 'vault',
  id: row.id,
  display_name: row.displayName,
  metadata: row.metadata,
  ...lifecycleTimestamps(row),
});

export const presentCredential = (row: VaultCredentialRow): VaultCredential => ({
  type: 'vault_credential',
  id: row.id,
  vault_id: row.vaultId,
  display_name: row.displayName,
  auth: row.auth,
  metadata: row.metadata,
  ...lifecycleTimestamps(row),
});
