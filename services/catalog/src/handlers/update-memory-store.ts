import type { Handler } from '@shared/bus/bus-server';
import type { memoryStoreSubjects } from '@shared/bus/subjects/catalog';
import { invalidRequest, notFound } from '@shared/errors/api-error';
import { requireTenant, type CatalogDeps } from '../catalog-deps';
import { findMemoryStore, presentMemoryStore, updateMemoryStoreRow } from '../db/memory-stores';
import { applyMetadataPatch } from '@shared/metadata/apply-metadata-patch';

type S = typeof memoryStoreSubjects.update;
/** Patch semantics: omitted or null name is kept, null description clears (to ""), metadata patches. */
export const updateMemoryStore =
  (deps: CatalogDeps): Handler<S> =>
  async ({ memory_store_id: id, update: patch }, ctx) => {
    const tenant = requireTenant(ctx);
    const row = await deps.db.transaction(async (tx) => {
      const current = await findMemoryStore(tx, tenant, id, { lock: true });
      if (!current) throw notFound(`memory store ${id} not found`);
      if (current.archivedAt) throw invalidRequest(`memory store ${id} is archived and cannot be updated`);
      const next = {
        ...current,
        name: patch.name ?? current.name,
        description: patch.description === undefined ? current.description : (patch.description ?? ''),
        metadata: applyMetadataPatch(current.metadata, patch.metadata),
        updatedAt: deps.clock.now(),
      };
      await updateMemoryStoreRow(tx, id, next);
      return next;
    });
    return presentMemoryStore(row);
  };
