import { resourceNotFound } from '@shared/errors/api-error';
import type { VaultCredentialRow, VaultRow } from '../db/schema';

export const vaultNotFound = (id: string) => resourceNotFound('vault', id);
export const credentialNotFound = (id: string) => resourceNotFound('credential', id);

/** A credential is addressed through its vault: a missing vault is reported first, then a missing credential. */
export function foundVaultCredential(
  found: { vault?: VaultRow; credential?: VaultCredentialRow },
  vaultId: string,
  credentialId: string,
): { vault: VaultRow; credential: VaultCredentialRow } {
  if (!found.vault) throw vaultNotFound(vaultId);
  if (!found.credential) throw credentialNotFound(credentialId);
  return { vault: found.vault, credential: found.credential };
}
