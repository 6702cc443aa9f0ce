import type { Handler } from '@shared/bus/bus-server';
import type { memoryStoreSubjects } from '@shared/bus/subjects/catalog';
import { newId } from '@shared/ids/ids';
import { requireTenant, type CatalogDeps } from '../catalog-deps';
import { insertMemoryStore, presentMemoryStore } from '../db/memory-stores';

type S = typeof memoryStoreSubjects.create;
export const createMemoryStore =
  (deps: CatalogDeps): Handler<S> =>
  async (body, ctx) => {
    const row = await insertMemoryStore(deps.db, {
      id: newId('memoryStore'),
      tenant: requireTenant(ctx),
      name: body.name,
      description: body.description ?? '',
      metadata: body.metadata ?? {},
      now: deps.clock.now(),
    });
    return presentMemoryStore(row);
  };
