import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { memoryVersionSubjects } from '@shared/bus/subjects/memories';
import { found } from '@shared/errors/api-error';
import { findMemoryStore } from '../db/memory-stores';
import { listMemoryVersionPage } from '../db/memory-versions';
import { memoryStoreNotFound } from '../domain/not-found';
import { presentMemoryVersion } from '../domain/present';
import type { CatalogDeps } from '../deps';

type S = typeof memoryVersionSubjects.list;
/** A store's versions, newest first, the deleted memories' included. */
export const listMemoryVersions =
  (deps: CatalogDeps): Handler<S> =>
  async (request, ctx) => {
    const tenant = tenantOf(ctx);
    const storeId = request.filters.memory_store_id;
    found(await findMemoryStore(deps.db, tenant, storeId), () => memoryStoreNotFound(storeId));
    return listMemoryVersionPage(deps.db, tenant, request, presentMemoryVersion(request.filters.view));
  };
