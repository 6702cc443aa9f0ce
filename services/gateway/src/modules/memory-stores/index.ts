import { memoryStoreSubjects } from '@shared/bus/subjects/catalog';
import { MemoryStoreCreateBody, MemoryStoreUpdateBody } from '@shared/schema/memory-store';
import { archivableListQuery } from '../../routing/archivable-list-query';
import { pageRoute, servePage } from '../../routing/pagination';
import { resourceModule } from '../../routing/resource-module';
import { itemRoutes } from '../../routing/item-routes';
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
    ...itemRoutes(deps, '/v1/memory_stores/:memory_store_id', memoryStoreSubjects, MemoryStoreUpdateBody),
  ]);
