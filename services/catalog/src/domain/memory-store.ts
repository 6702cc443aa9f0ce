import { applyMetadataPatch } from '@shared/metadata/apply-metadata-patch';
import type { MemoryStoreCreateBody, MemoryStoreUpdateBody } from '@shared/schema/memory-store';
import type { MemoryStoreRow } from '../db/schema';
import type { NewRowColumns } from '@shared/db/columns';
import { refuseArchived } from './owned-row';

/** A new memory store: its description is always a string, empty when none is given (SDK shape). */
export const newMemoryStore = (body: MemoryStoreCreateBody, columns: NewRowColumns): MemoryStoreRow => ({
  ...columns,
  name: body.name,
  description: body.description ?? '',
  metadata: body.metadata ?? {},
});

/**
 * Patch semantics: omitted or null name is kept, null description clears (to ""), metadata is
 * patched. An archived memory store is frozen.
 */
export function applyMemoryStoreUpdate(current: MemoryStoreRow, patch: MemoryStoreUpdateBody, now: Date): MemoryStoreRow {
  refuseArchived('memory store', current);
  return {
    ...current,
    name: patch.name ?? current.name,
    description: patch.description === undefined ? current.description : (patch.description ?? ''),
    metadata: applyMetadataPatch(current.metadata, patch.metadata),
    updatedAt: now,
  };
}
