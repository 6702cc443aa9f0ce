import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { PagePosition } from '@shared/schema/common';
import { vaultCredentials, type VaultCredentialRow } from './schema';
import { keysetAfter, newestFirst, readPage } from '@shared/db/keyset-page';
import type { Executor } from './vault-queries';

/** Callers check the vault's tenant first; a credential is addressed through its vault. */
export async function findCredential(db: Executor, vaultId: string, id: string): Promise<VaultCredentialRow | undefined> {
  const [row] = await db
    .select()
    .from(vaultCredentials)
    .where(and(eq(vaultCredentials.vaultId, vaultId), eq(vaultCredentials.id, id)))
    .limit(1);
  return row;
}

/** One page of a vault's credentials, newest first, read in chunks within the page byte budget. */
export function listCredentialPage<T>(
  db: Executor,
  vaultId: string,
  options: { includeArchived: boolean; after: PagePosition | null; limit: number },
  present: (row: VaultCredentialRow) => T,
): Promise<{ data: T[]; next: PagePosition | null }> {
  const readChunk = (from: PagePosition | null, count: number) =>
    db
      .select()
      .from(vaultCredentials)
      .where(
        and(
          eq(vaultCredentials.vaultId, vaultId),
          options.includeArchived ? undefined : isNull(vaultCredentials.archivedAt),
          keysetAfter(vaultCredentials, from),
        ),
      )
      .orderBy(...newestFirst(vaultCredentials))
      .limit(count);
  return readPage(readChunk, options.after, options.limit, present);
}

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

export async function updateCredentialRow(
  db: Executor,
  id: string,
  changes: Pick<VaultCredentialRow, 'displayName' | 'metadata' | 'auth' | 'sealedSecret' | 'updatedAt'>,
): Promise<void> {
  await db.update(vaultCredentials).set(changes).where(eq(vaultCredentials.id, id));
}

/** Archiving keeps the record and destroys its secret: an archived credential is never used again. */
export async function archiveCredentialRow(db: Executor, id: string, now: Date): Promise<void> {
  await db
    .update(vaultCredentials)
    .set({ archivedAt: now, updatedAt: now, sealedSecret: null })
    .where(and(eq(vaultCredentials.id, id), isNull(vaultCredentials.archivedAt)));
}

export async function deleteCredentialRow(db: Executor, id: string): Promise<void> {
  await db.delete(vaultCredentials).where(eq(vaultCredentials.id, id));
}

export async function deleteCredentialsOfVault(db: Executor, vaultId: string): Promise<void> {
  await db.delete(vaultCredentials).where(eq(vaultCredentials.vaultId, vaultId));
}
