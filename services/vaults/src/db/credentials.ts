import { archivedConditions } from '@shared/db/list-filters';
import type { PageRequest } from '@shared/db/keyset-page';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Executor, ReadOptions } from '@shared/db/executor';
import { readNewestFirstPage } from '@shared/db/newest-first-page';
import type { Tenant } from '@shared/schema/tenant';
import type { CredentialListFilters } from '@shared/schema/vault-credential';
import { vaultCredentials, type VaultCredentialRow, type VaultRow } from './schema';
import { findVault } from './vaults';

/** Callers check the vault's tenant first; a credential is addressed through its vault. */
/** A credential by id within a vault; only ever reached through findVaultCredential, which checks the vault's tenant. */
async function findCredential(db: Executor, vaultId: string, id: string): Promise<VaultCredentialRow | undefined> {
  const [row] = await db
    .select()
    .from(vaultCredentials)
    .where(and(eq(vaultCredentials.vaultId, vaultId), eq(vaultCredentials.id, id)))
    .limit(1);
  return row;
}

/**
 * The tenant's vault and the credential in it, each undefined when missing (the credential is
 * not looked for when the vault is). With `lock`, the vault row is locked: every change to a
 * vault's credentials runs under it, so none races the vault's deletion.
 */
export async function findVaultCredential(
  db: Executor,
  tenant: Tenant,
  vaultId: string,
  credentialId: string,
  options?: ReadOptions,
): Promise<{ vault?: VaultRow; credential?: VaultCredentialRow }> {
  const vault = await findVault(db, tenant, vaultId, options);
  return { vault, credential: vault && (await findCredential(db, vaultId, credentialId)) };
}

/** One page of a vault's credentials, newest first. */
export const listCredentialPage = <T>(
  db: Executor,
  request: PageRequest<CredentialListFilters>,
  present: (row: VaultCredentialRow) => T,
) => {
  const inVault = eq(vaultCredentials.vaultId, request.filters.vault_id);
  const archived = archivedConditions(vaultCredentials.archivedAt, request.filters.include_archived);
  return readNewestFirstPage(db, vaultCredentials, [inVault, ...archived], request, present);
};

/** Whether an active credential of the vault already uses this target. */
export async function activeCredentialWithTarget(db: Executor, vaultId: string, target: string): Promise<boolean> {
  const rows = await db
    .select({ id: vaultCredentials.id })
    .from(vaultCredentials)
    .where(and(eq(vaultCredentials.vaultId, vaultId), eq(vaultCredentials.target, target), isNull(vaultCredentials.archivedAt)))
    .limit(1);
  return rows.length > 0;
}

/** The active credentials of these vaults, oldest first, for resolving. */
export async function activeCredentialsOfVaults(db: Executor, vaultIds: string[]): Promise<VaultCredentialRow[]> {
  if (vaultIds.length === 0) return [];
  return db
    .select()
    .from(vaultCredentials)
    .where(and(inArray(vaultCredentials.vaultId, vaultIds), isNull(vaultCredentials.archivedAt)))
    .orderBy(vaultCredentials.createdAt, vaultCredentials.id);
}

export async function insertCredential(db: Executor, row: VaultCredentialRow): Promise<void> {
  await db.insert(vaultCredentials).values(row);
}

export async function updateCredential(
  db: Executor,
  id: string,
  changes: Pick<VaultCredentialRow, 'displayName' | 'metadata' | 'auth' | 'sealedSecret' | 'updatedAt'>,
): Promise<void> {
  await db.update(vaultCredentials).set(changes).where(eq(vaultCredentials.id, id));
}

/** Archiving keeps the record and destroys its secret: an archived credential is never used again. */
export async function markCredentialArchived(db: Executor, id: string, now: Date): Promise<void> {
  await db
    .update(vaultCredentials)
    .set({ archivedAt: now, updatedAt: now, sealedSecret: null })
    .where(and(eq(vaultCredentials.id, id), isNull(vaultCredentials.archivedAt)));
}

export async function deleteCredential(db: Executor, id: string): Promise<void> {
  await db.delete(vaultCredentials).where(eq(vaultCredentials.id, id));
}

export async function deleteCredentialsOfVault(db: Executor, vaultId: string): Promise<void> {
  await db.delete(vaultCredentials).where(eq(vaultCredentials.vaultId, vaultId));
}
