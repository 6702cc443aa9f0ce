import { Type, type Static } from '@sinclair/typebox';
import { Closed, IdOf, InclusiveCreatedAtBounds, ListReply, ListRequest, Nullable, Timestamp } from './common';
import { MemoryActor, MemoryView, WriteActor } from './memory';
import { TypedObject } from './resource-shapes';

/**
 * Memory versions: one per change of a memory, who made it and what the memory was after it
 * (SDK `BetaManagedAgentsMemoryVersion`, resources/beta/memory-stores/memory-versions.d.ts).
 * Only a redaction changes one afterwards; they outlive their memory and go with their store.
 */

export const MemoryVersionOperation = Type.Union([Type.Literal('created'), Type.Literal('modified'), Type.Literal('deleted')]);
export type MemoryVersionOperation = Static<typeof MemoryVersionOperation>;

export const MemoryVersion = TypedObject('memory_version', {
  memory_id: Type.String(),
  memory_store_id: Type.String(),
  operation: MemoryVersionOperation,
  /** Null with `view=basic`, on a `deleted` version, and once redacted. */
  content: Nullable(Type.String()),
  /** Null on a `deleted` version and once redacted; set whatever the view otherwise. */
  content_sha256: Nullable(Type.String()),
  content_size_bytes: Nullable(Type.Integer({ minimum: 0 })),
  /** Null if and only if redacted. */
  path: Nullable(Type.String()),
  created_at: Timestamp,
  /**
   * Left out when unknown, and `redacted_by` until a redaction: the SDK's doc says null, its type
   * (`created_by?: BetaManagedAgentsActor`) admits no null, and a client checks the type.
   */
  created_by: Type.Optional(MemoryActor),
  redacted_at: Nullable(Timestamp),
  redacted_by: Type.Optional(MemoryActor),
});
export type MemoryVersion = Static<typeof MemoryVersion>;

const versionIds = { memory_store_id: IdOf('memoryStore'), memory_version_id: IdOf('memoryVersion') };

export const GetMemoryVersionRequest = Closed({ ...versionIds, view: MemoryView });
/** The redactor; absent, the calling API key. */
export const RedactMemoryVersionRequest = Closed({ ...versionIds, actor: Type.Optional(WriteActor) });

/** Newest first; every filter optional but the store's and the view. */
export const MemoryVersionListFilters = Closed({
  memory_store_id: IdOf('memoryStore'),
  memory_id: Type.Optional(IdOf('memory')),
  operation: Type.Optional(MemoryVersionOperation),
  api_key_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  session_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  service_account_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  ...InclusiveCreatedAtBounds,
  view: MemoryView,
});
export type MemoryVersionListFilters = Static<typeof MemoryVersionListFilters>;

export const MemoryVersionListRequest = ListRequest(MemoryVersionListFilters);
export const MemoryVersionListReply = ListReply(MemoryVersion);
