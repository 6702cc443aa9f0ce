import { Type } from '@sinclair/typebox';
import { memoryStoreSubjects } from '@shared/bus/subjects/catalog';
import { QueryBoolean } from '@shared/schema/common';
import { MemoryStoreCreateBody, MemoryStoreUpdateBody } from '@shared/schema/memory-store';
import { createdAtRange } from '../../domain/created-at';
import { pagedQuery, pageRoute, servePage } from '../../routing/pagination';
import { resourceModule } from '../../routing/resource-module';
import { route } from '../../routing/route';
import type { GatewayDeps } from '../../service';

const createdAt = createdAtRange('gte', 'lte');

export const memoryStoreListRoute = pageRoute({
  endpoint: 'memory_stores.list',
  query: pagedQuery({ ...createdAt.query, include_archived: Type.Optional(QueryBoolean) }),
  subject: memoryStoreSubjects.list,
  toFilters: (q) => ({ ...createdAt.filters(q), include_archived: q.include_archived === 'true' }),
});

/** /v1/memory_stores: memory stores sessions mount, served by the catalog service. */
export const memoryStoresModule = (deps: GatewayDeps) =>
  resourceModule('memory-stores', deps, [
    route.post('/v1/memory_stores', { body: MemoryStoreCreateBody }, ({ call, body }) => deps.bus.call(memoryStoreSubjects.create, call, body)),
    route.list('/v1/memory_stores', servePage(memoryStoreListRoute, deps)),
    route.get('/v1/memory_stores/:memory_store_id', {}, ({ call, params }) => deps.bus.call(memoryStoreSubjects.get, call, params)),
    route.post('/v1/memory_stores/:memory_store_id', { body: MemoryStoreUpdateBody }, ({ call, params, body }) =>
      deps.bus.call(memoryStoreSubjects.update, call, { memory_store_id: params.memory_store_id, update: body }),
    ),
    route.post('/v1/memory_stores/:memory_store_id/archive', {}, ({ call, params }) => deps.bus.call(memoryStoreSubjects.archive, call, params)),
    route.delete('/v1/memory_stores/:memory_store_id', {}, ({ call, params }) => deps.bus.call(memoryStoreSubjects.delete, call, params)),
  ]);
