import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { memoryStoreSubjects } from '@shared/bus/subjects/catalog';
import { newId } from '@shared/ids/ids';
import { insertMemoryStore } from '../db/memory-stores';
import { newMemoryStore } from '../domain/memory-store';
import { newRowColumns } from '@shared/db/columns';
import { presentMemoryStore } from '../domain/present';
import type { CatalogDeps } from '../deps';

type S = typeof memoryStoreSubjects.create;
export const createMemoryStore =
  (deps: CatalogDeps): Handler<S> =>
  async (body, ctx) => {
    const row = newMemoryStore(body, newRowColumns(newId('memoryStore'), tenantOf(ctx), deps.clock.now()));
    await insertMemoryStore(deps.db, row);
    return presentMemoryStore(row);
  };
