import { tenantOf, type CallContext } from '@shared/bus/call-context';
import type { Executor } from '@shared/db/executor';
import { found } from '@shared/errors/api-error';
import { findVaultCredential } from '../db/credentials';
import type { VaultCredentialRow, VaultRow } from '../db/schema';
import { findVault } from '../db/vaults';
import { foundVaultCredential, vaultNotFound } from '../domain/not-found';
import type { VaultsDeps } from '../deps';

/**
 * How every change to a vault or its credentials runs (a helper of the handlers, not a use case):
 * in one transaction that holds the caller's vault row locked, so no change races the vault's
 * deletion (crypto-shredding) or another change; a vault or credential that is not the caller's
 * is 404, the vault reported first.
 */
export function changeVault<T>(deps: VaultsDeps, ctx: CallContext, vaultId: string, change: (tx: Executor, vault: VaultRow) => Promise<T>): Promise<T> {
  const tenant = tenantOf(ctx);
  return deps.db.transaction(async (tx) => change(tx, found(await findVault(tx, tenant, vaultId, { lock: true }), () => vaultNotFound(vaultId))));
}

export function changeCredential<T>(
  deps: VaultsDeps,
  ctx: CallContext,
  ids: { vault_id: string; credential_id: string },
  change: (tx: Executor, found: { vault: VaultRow; credential: VaultCredentialRow }) => Promise<T>,
): Promise<T> {
  const tenant = tenantOf(ctx);
  return deps.db.transaction(async (tx) =>
    change(tx, foundVaultCredential(await findVaultCredential(tx, tenant, ids.vault_id, ids.credential_id, { lock: true }), ids.vault_id, ids.credential_id)),
  );
}
