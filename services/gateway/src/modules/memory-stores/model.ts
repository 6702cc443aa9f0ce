import { Type } from '@sinclair/typebox';
import { memoryStoreSubjects } from '@shared/bus/subjects/catalog';
import { QueryBoolean } from '@shared/schema/common';
import { MemoryStore, MemoryStoreListFilters } from '@shared/schema/memory-store';
import { pagedQuery, type PageRoute } from '../../routing/pagination';
import { CreatedAtQuery } from '../agents/model';
import { createdAtBound } from '../../http/created-at-bound';

export const MemoryStoreListQuery = pagedQuery({ ...CreatedAtQuery, include_archived: Type.Optional(QueryBoolean) });

export const memoryStoreListRoute: PageRoute<typeof MemoryStoreListQuery, typeof MemoryStoreListFilters, typeof MemoryStore> = {
  endpoint: 'memory_stores.list',
  query: MemoryStoreListQuery,
  subject: memoryStoreSubjects.list,
  toFilters: (q): MemoryStoreListFilters => ({
    created_at_gte: createdAtBound('gte', q['created_at[gte]']),
    created_at_lte: createdAtBound('lte', q['created_at[lte]']),
    include_archived: q.include_archived === 'true',
  }),
};
