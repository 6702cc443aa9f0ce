import { Elysia } from 'elysia';
import { memoryStoreSubjects } from '@shared/bus/subjects/catalog';
import { MemoryStoreCreateBody, MemoryStoreUpdateBody } from '@shared/schema/memory-store';
import { emptyBody, jsonBody } from '../../http/raw-body';
import type { GatewayDeps } from '../../routing/gateway-deps';
import { createGuard } from '../../routing/guard';
import { checkPathIds } from '../../routing/path-id';
import { servePage } from '../../routing/pagination';
import { memoryStoreListRoute } from './model';

/** /v1/memory_stores: memory stores sessions mount, served by the catalog service. */
export const memoryStoresModule = (deps: GatewayDeps) =>
  new Elysia({ name: 'module-memory-stores' })
    .use(createGuard(deps))
    .onBeforeHandle(checkPathIds)
    .post('/v1/memory_stores', ({ call, body }) => {
      return deps.bus.call(memoryStoreSubjects.create, call, jsonBody(MemoryStoreCreateBody, body));
    })
    .get('/v1/memory_stores', ({ call, url }) =>
      servePage(memoryStoreListRoute, { bus: deps.bus, cursorKey: deps.config.cursorKey }, call, url),
    )
    .get('/v1/memory_stores/:memory_store_id', ({ call, params }) => {
      return deps.bus.call(memoryStoreSubjects.get, call, { memory_store_id: params.memory_store_id });
    })
    .post('/v1/memory_stores/:memory_store_id', ({ call, params, body }) => {
      const patch = jsonBody(MemoryStoreUpdateBody, body);
      return deps.bus.call(memoryStoreSubjects.update, call, { memory_store_id: params.memory_store_id, update: patch });
    })
    .post('/v1/memory_stores/:memory_store_id/archive', ({ call, params, body }) => {
      emptyBody(body);
      return deps.bus.call(memoryStoreSubjects.archive, call, { memory_store_id: params.memory_store_id });
    })
    .delete('/v1/memory_stores/:memory_store_id', ({ call, params, body }) => {
      emptyBody(body);
      return deps.bus.call(memoryStoreSubjects.delete, call, { memory_store_id: params.memory_store_id });
    });
