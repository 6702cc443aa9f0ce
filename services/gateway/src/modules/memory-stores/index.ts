import { memoryStoreSubjects } from '@shared/bus/subjects/catalog';
import { MemoryStoreCreateBody, MemoryStoreUpdateBody } from '@shared/schema/memory-store';
import { archivableListQuery } from '../../routing/archivable-list-query';
import { pageRoute, servePage } from '../../routing/pagination';
import { resourceModule } from '../../routing/resource-module';
import { route } from '../../routing/route';
import type { GatewayDeps } from '../../deps';

export const memoryStoreListRoute = pageRoute({
  endpoint: 'memory_stores.list',
  subject: memoryStoreSubjects.list,
  ...archivableListQuery,
});

/** /v1/memory_stores: memory stores sessions mount, served by the catalog service. */
export const memoryStoresModule = (deps: GatewayDeps) =>
  resourceModule('memory-stores', deps, [
    route.post('/v1/memory_stores', { body: MemoryStoreCreateBody, reply: memoryStoreSubjects.create.reply }, ({ call, body }) =>
      deps.bus.call(memoryStoreSubjects.create, call, body),
    ),
    route.list('/v1/memory_stores', servePage(memoryStoreListRoute, deps)),
    route.get('/v1/memory_stores/:memory_store_id', { reply: memoryStoreSubjects.get.reply }, ({ call, params }) =>
      deps.bus.call(memoryStoreSubjects.get, call, params),
    ),
    route.post('/v1/memory_stores/:memory_store_id', { body: MemoryStoreUpdateBody, reply: memoryStoreSubjects.update.reply }, ({ call, params, body }) =>
      deps.bus.call(memoryStoreSubjects.update, call, { memory_store_id: params.memory_store_id, update: body }),
    ),
    route.post('/v1/memory_stores/:memory_store_id/archive', { reply: memoryStoreSubjects.archive.reply }, ({ call, params }) =>
      deps.bus.call(memoryStoreSubjects.archive, call, params),
    ),
    route.delete('/v1/memory_stores/:memory_store_id', { reply: memoryStoreSubjects.delete.reply }, ({ call, params }) =>
      deps.bus.call(memoryStoreSubjects.delete, call, params),
    ),
  ]);
