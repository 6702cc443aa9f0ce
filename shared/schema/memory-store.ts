import { Type, type Static } from '@sinclair/typebox';
import { defineEvent } from '../bus/event';
import { Closed, IdParam, InclusiveCreatedAtBounds, ListReply, ListRequest, Metadata, MetadataPatch, Nullable, StoredMetadata } from './common';
import { ArchivableListFilters, Deleted, IdRequest, ReturnedResource, UpdateRequest } from './resource-shapes';

/** The memory store resource (SDK `BetaManagedAgentsMemoryStore`); its contents are not served here. */

const MemoryStoreName = Type.String({ minLength: 1, maxLength: 256 });
const MemoryStoreDescription = Type.String({ maxLength: 2048 });

export const MemoryStoreCreateBody = Closed({
  name: MemoryStoreName,
  description: Type.Optional(MemoryStoreDescription),
  metadata: Type.Optional(Metadata),
});
export type MemoryStoreCreateBody = Static<typeof MemoryStoreCreateBody>;

/** Patch: omitted (or null) name is preserved; null description clears it. */
export const MemoryStoreUpdateBody = Closed({
  name: Type.Optional(Nullable(MemoryStoreName)),
  description: Type.Optional(Nullable(MemoryStoreDescription)),
  metadata: Type.Optional(Nullable(MetadataPatch)),
});
export type MemoryStoreUpdateBody = Static<typeof MemoryStoreUpdateBody>;

export const MemoryStore = ReturnedResource('memory_store', {
  name: Type.String(),
  /** Always a string per the SDK; empty when none was given. */
  description: Type.String(),
  metadata: StoredMetadata,
});
export type MemoryStore = Static<typeof MemoryStore>;

export const MemoryStoreDeleted = Deleted('memory_store_deleted');

export const MemoryStoreListFilters = ArchivableListFilters(InclusiveCreatedAtBounds);
export type MemoryStoreListFilters = Static<typeof MemoryStoreListFilters>;

export const MemoryStoreIdRequest = IdRequest('memory_store_id', 'memoryStore');
export const UpdateMemoryStoreRequest = UpdateRequest('memory_store_id', 'memoryStore', MemoryStoreUpdateBody);
export const MemoryStoreListRequest = ListRequest(MemoryStoreListFilters);
export const MemoryStoreListReply = ListReply(MemoryStore);

export const MemoryStoreEventPayload = Closed({ memory_store_id: IdParam });
export const memoryStoreEvents = {
  archived: defineEvent('catalog', 'catalog.memory_store.archived', MemoryStoreEventPayload),
  deleted: defineEvent('catalog', 'catalog.memory_store.deleted', MemoryStoreEventPayload),
};
