import { Type, type Static } from '@sinclair/typebox';
import { defineEvent } from '../bus/event';
import { IdOf, IdParam, ListReply, ListRequest, Metadata, MetadataPatch, Nullable, Timestamp } from './common';

/** The memory store resource (SDK `BetaManagedAgentsMemoryStore`); its contents are not served here. */

const MemoryStoreName = Type.String({ minLength: 1, maxLength: 256 });
const MemoryStoreDescription = Type.String({ maxLength: 2048 });

export const MemoryStoreCreateBody = Type.Object(
  {
    name: MemoryStoreName,
    description: Type.Optional(MemoryStoreDescription),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);
export type MemoryStoreCreateBody = Static<typeof MemoryStoreCreateBody>;

/** Patch: omitted (or null) name is preserved; null description clears it. */
export const MemoryStoreUpdateBody = Type.Object(
  {
    name: Type.Optional(Nullable(MemoryStoreName)),
    description: Type.Optional(Nullable(MemoryStoreDescription)),
    metadata: Type.Optional(Nullable(MetadataPatch)),
  },
  { additionalProperties: false },
);
export type MemoryStoreUpdateBody = Static<typeof MemoryStoreUpdateBody>;

export const MemoryStore = Type.Object(
  {
    type: Type.Literal('memory_store'),
    id: Type.String(),
    name: Type.String(),
    /** Always a string per the SDK; empty when none was given. */
    description: Type.String(),
    metadata: Type.Record(Type.String(), Type.String()),
    created_at: Timestamp,
    updated_at: Timestamp,
    archived_at: Nullable(Timestamp),
  },
  { additionalProperties: false },
);
export type MemoryStore = Static<typeof MemoryStore>;

export const MemoryStoreDeleted = Type.Object(
  { type: Type.Literal('memory_store_deleted'), id: Type.String() },
  { additionalProperties: false },
);

export const MemoryStoreListFilters = Type.Object(
  {
    created_at_gte: Type.Optional(Type.String()),
    created_at_lte: Type.Optional(Type.String()),
    include_archived: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type MemoryStoreListFilters = Static<typeof MemoryStoreListFilters>;

export const MemoryStoreIdRequest = Type.Object({ memory_store_id: IdOf('memoryStore') }, { additionalProperties: false });
export const UpdateMemoryStoreRequest = Type.Object(
  { memory_store_id: IdOf('memoryStore'), update: MemoryStoreUpdateBody },
  { additionalProperties: false },
);
export const MemoryStoreListRequest = ListRequest(MemoryStoreListFilters);
export const MemoryStoreListReply = ListReply(MemoryStore);

export const MemoryStoreEventPayload = Type.Object({ memory_store_id: IdParam }, { additionalProperties: false });
export const memoryStoreEvents = {
  archived: defineEvent('catalog', 'catalog.memory_store.archived', MemoryStoreEventPayload),
  deleted: defineEvent('catalog', 'catalog.memory_store.deleted', MemoryStoreEventPayload),
};
