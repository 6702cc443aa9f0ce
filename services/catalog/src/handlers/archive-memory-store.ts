import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import { found } from '@shared/errors/api-error';
import type { memoryStoreSubjects } from '@shared/bus/subjects/catalog';
import { memoryStoreEvents } from '@shared/schema/memory-store';
import { archiveOwnedRow } from '../db/archive-and-delete';
import { memoryStores } from '../db/schema';
import { memoryStoreNotFound } from '../domain/not-found';
import { presentMemoryStore } from '../domain/present';
import type { CatalogDeps } from '../deps';

type S = typeof memoryStoreSubjects.archive;
/** Idempotent: archiving an archived store changes nothing and announces nothing. */
export const archiveMemoryStore =
  (deps: CatalogDeps): Handler<S> =>
  async ({ memory_store_id: id }, ctx) => {
    const announce = { event: memoryStoreEvents.archived, data: { memory_store_id: id } };
    return presentMemoryStore(found(await archiveOwnedRow(deps, memoryStores, tenantOf(ctx), id, announce), () => memoryStoreNotFound(id)));
  };
