import { Type } from '@sinclair/typebox';
import { catalogSubjects } from '../../../../../shared/bus/subjects/catalog';
import { QueryBoolean } from '../../../../../shared/schema/common';
import { MemoryStore, MemoryStoreListFilters } from '../../../../../shared/schema/memory-store';
import { pagedQuery, type PageRoute } from '../../routing/pagination';
import { CreatedAtQuery, timestampFilter } from '../agents/model';

export const MemoryStoreListQuery = pagedQuery({ ...CreatedAtQuery, include_archived: Type.Optional(QueryBoolean) });

export const memoryStoreListRoute: PageRoute<typeof MemoryStoreListQuery, typeof MemoryStoreListFilters, typeof MemoryStore> = {
  endpoint: 'memory_stores.list',
  query: MemoryStoreListQuery,
  subject: catalogSubjects.listMemoryStores,
  toFilters: (q): MemoryStoreListFilters => ({
    created_at_gte: timestampFilter('created_at[gte]', q['created_at[gte]']),
    created_at_lte: timestampFilter('created_at[lte]', q['created_at[lte]']),
    include_archived: q.include_archived === 'true',
  }),
};
