import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { memorySubjects } from '@shared/bus/subjects/memories';
import { found } from '@shared/errors/api-error';
import { findMemory } from '../db/memories';
import { memoryNotFound } from '../domain/not-found';
import { presentMemory } from '../domain/present';
import type { CatalogDeps } from '../deps';

type S = typeof memorySubjects.get;
export const getMemory =
  (deps: CatalogDeps): Handler<S> =>
  async ({ memory_store_id: storeId, memory_id: id, view }, ctx) =>
    presentMemory(view)(found(await findMemory(deps.db, tenantOf(ctx), storeId, id), () => memoryNotFound(id)));
