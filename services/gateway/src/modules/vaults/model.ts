import { Type } from '@sinclair/typebox';
import { vaultCredentialSubjects, vaultSubjects } from '@shared/bus/subjects/vaults';
import { QueryBoolean } from '@shared/schema/common';
import { pagedQuery, pageRoute } from '../../routing/pagination';

export const vaultListRoute = pageRoute({
  endpoint: 'vaults.list',
  query: pagedQuery({ include_archived: Type.Optional(QueryBoolean) }),
  subject: vaultSubjects.list,
  toFilters: (q) => ({ include_archived: q.include_archived === 'true' }),
});

/** The vault is part of the filters, so a cursor from one vault's list is refused on another's. */
export const credentialListRoute = pageRoute({
  endpoint: 'vaults.credentials.list',
  query: pagedQuery({ include_archived: Type.Optional(QueryBoolean) }),
  subject: vaultCredentialSubjects.list,
  toFilters: (q, params: { vault_id: string }) => ({ vault_id: params.vault_id, include_archived: q.include_archived === 'true' }),
});
