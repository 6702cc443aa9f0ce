import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import { found } from '@shared/errors/api-error';
import type { memoryStoreSubjects } from '@shared/bus/subjects/catalog';
import { findMemoryStore } from '../db/memory-stores';
import { memoryStoreNotFound } from '../domain/not-found';
import { presentMemoryStore } from '../domain/present';
import type { CatalogDeps } from '../deps';

type S = typeof memoryStoreSubjects.get;
export const getMemoryStore =
  (deps: CatalogDeps): Handler<S> =>
  async ({ memory_store_id: id }, ctx) => {
    return presentMemoryStore(found(await findMemoryStore(deps.db, tenantOf(ctx), id), () => memoryStoreNotFound(id)));
  };
