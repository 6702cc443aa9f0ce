import { Type, type Static } from '@sinclair/typebox';
import { QueryBoolean } from '@shared/schema/common';
import { createdAtRange } from '../domain/created-at';
import { pagedQuery } from './pagination';

const createdAt = createdAtRange('gte', 'lte');
const query = pagedQuery({ ...createdAt.query, include_archived: Type.Optional(QueryBoolean) });

/**
 * The query of a list of archivable resources (agents, memory stores): `created_at[gte]`,
 * `created_at[lte]` and `include_archived`, and the bus filters it becomes
 * (`ArchivableListFilters(InclusiveCreatedAtBounds)`). Spread into the list's `pageRoute`.
 */
export const archivableListQuery = {
  query,
  toFilters: (q: Static<typeof query>) => ({ ...createdAt.filters(q), include_archived: q.include_archived === 'true' }),
};
