import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { memoryVersionSubjects } from '@shared/bus/subjects/memories';
import { found } from '@shared/errors/api-error';
import { findMemoryVersion } from '../db/memory-versions';
import { memoryVersionNotFound } from '../domain/not-found';
import { presentMemoryVersion } from '../domain/present';
import type { CatalogDeps } from '../deps';

type S = typeof memoryVersionSubjects.get;
export const getMemoryVersion =
  (deps: CatalogDeps): Handler<S> =>
  async ({ memory_store_id: storeId, memory_version_id: id, view }, ctx) =>
    presentMemoryVersion(view)(found(await findMemoryVersion(deps.db, tenantOf(ctx), storeId, id), () => memoryVersionNotFound(id)));
