import { Type } from '@sinclair/typebox';
import { vaultCredentialSubjects, vaultSubjects } from '@shared/bus/subjects/vaults';
import { QueryBoolean } from '@shared/schema/common';
import { Vault, VaultListFilters } from '@shared/schema/vault';
import { CredentialListFilters, VaultCredential } from '@shared/schema/vault-credential';
import { pagedQuery, type PageRoute } from '../../routing/pagination';

export const VaultListQuery = pagedQuery({ include_archived: Type.Optional(QueryBoolean) });

export const vaultListRoute: PageRoute<typeof VaultListQuery, typeof VaultListFilters, typeof Vault> = {
  endpoint: 'vaults.list',
  query: VaultListQuery,
  subject: vaultSubjects.list,
  toFilters: (q) => ({ include_archived: q.include_archived === 'true' }),
};

export const CredentialListQuery = pagedQuery({ include_archived: Type.Optional(QueryBoolean) });

/** The vault is part of the filters, so a cursor from one vault's list is refused on another's. */
export const credentialListRoute = (
  vaultId: string,
): PageRoute<typeof CredentialListQuery, typeof CredentialListFilters, typeof VaultCredential> => ({
  endpoint: 'vaults.credentials.list',
  query: CredentialListQuery,
  subject: vaultCredentialSubjects.list,
  toFilters: (q) => ({ vault_id: vaultId, include_archived: q.include_archived === 'true' }),
});
