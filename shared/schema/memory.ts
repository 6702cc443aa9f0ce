import { Type, type Static } from '@sinclair/typebox';
import { Closed, IdOf, Nullable, Timestamp } from './common';
import { Deleted, TypedObject } from './resource-shapes';

/**
 * Memories: text documents at paths inside a memory store (SDK `BetaManagedAgentsMemory`,
 * resources/beta/memory-stores/memories.d.ts). The path rules beyond a string's length (segments,
 * characters, NFC, bytes) and the content's byte limit are the catalog's (domain/memory-path.ts,
 * domain/memory.ts), which answers them as 400s naming the field.
 */

/** Whether a memory (or memory version) in a reply carries its `content`: `basic` leaves it null. */
export const MemoryView = Type.Union([Type.Literal('basic'), Type.Literal('full')]);
export type MemoryView = Static<typeof MemoryView>;

/** Lowercase hex SHA-256 of the content's UTF-8 bytes. */
export const ContentSha256 = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'must be 64 lowercase hexadecimal characters' });

/** A path as the request gives it; domain/memory-path.ts holds the rest of its rules. */
const MemoryPathText = Type.String({ minLength: 1, maxLength: 1024 });

/**
 * Who wrote a version (SDK `BetaManagedAgentsActor`). The catalog records the two it can tell
 * apart: an API key, and a session (an agent writing through its sessions token); user and
 * service-account actors are the SDK's, for callers this product does not have.
 */
export const ApiActor = Closed({ type: Type.Literal('api_actor'), api_key_id: Type.String() });
export const SessionActor = Closed({ type: Type.Literal('session_actor'), session_id: Type.String() });
export const UserActor = Closed({ type: Type.Literal('user_actor'), user_id: Type.String() });
export const ServiceAccountActor = Closed({ type: Type.Literal('service_account_actor'), service_account_id: Type.String() });
export const MemoryActor = Type.Union([SessionActor, ApiActor, UserActor, ServiceAccountActor]);
export type MemoryActor = Static<typeof MemoryActor>;

/** The author of a write, as the gateway names its caller on the bus request. */
export const WriteActor = Type.Union([SessionActor, ApiActor]);
export type WriteActor = Static<typeof WriteActor>;

/** Create: `content` null is taken as an empty memory (the SDK types it `string | null`). */
export const MemoryCreateBody = Closed({
  content: Nullable(Type.String()),
  path: MemoryPathText,
});
export type MemoryCreateBody = Static<typeof MemoryCreateBody>;

export const MemoryPrecondition = Closed({ type: Type.Literal('content_sha256'), content_sha256: ContentSha256 });

/** Update: omitted (or null) content and path are kept; `precondition` asserts the current content. */
export const MemoryUpdateBody = Closed({
  content: Type.Optional(Nullable(Type.String())),
  path: Type.Optional(Nullable(MemoryPathText)),
  precondition: Type.Optional(MemoryPrecondition),
});
export type MemoryUpdateBody = Static<typeof MemoryUpdateBody>;

export const Memory = TypedObject('memory', {
  memory_store_id: Type.String(),
  path: Type.String(),
  /** Null with `view=basic`. */
  content: Nullable(Type.String()),
  content_sha256: Type.String(),
  content_size_bytes: Type.Integer({ minimum: 0 }),
  memory_version_id: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Memory = Static<typeof Memory>;

/** A directory marker a list with `depth` returns instead of the memories below it. */
export const MemoryPrefix = Closed({ type: Type.Literal('memory_prefix'), path: Type.String() });
export type MemoryPrefix = Static<typeof MemoryPrefix>;
export const MemoryListItem = Type.Union([Memory, MemoryPrefix]);
export type MemoryListItem = Static<typeof MemoryListItem>;

export const MemoryDeleted = Deleted('memory_deleted');

/** The ids of one memory, as its path names them. */
const memoryIds = { memory_store_id: IdOf('memoryStore'), memory_id: IdOf('memory') };
/** The author of a write; absent, the calling API key (the call context's `key_id`). */
const actor = { actor: Type.Optional(WriteActor) };

export const CreateMemoryRequest = Closed({ memory_store_id: IdOf('memoryStore'), memory: MemoryCreateBody, view: MemoryView, ...actor });
export const GetMemoryRequest = Closed({ ...memoryIds, view: MemoryView });
export const UpdateMemoryRequest = Closed({ ...memoryIds, update: MemoryUpdateBody, view: MemoryView, ...actor });
export const DeleteMemoryRequest = Closed({ ...memoryIds, expected_content_sha256: Type.Optional(ContentSha256), ...actor });

/**
 * A memory list reads in path order (byte order of the UTF-8 path), so a directory's memories
 * stand together and a `memory_prefix` replaces them in one place. Where a page stopped: after
 * `path`, or, when the page ended on a prefix, after everything below it (`subtree`).
 */
export const MemoryPagePosition = Closed({ path: Type.String(), subtree: Type.Boolean() });
export type MemoryPagePosition = Static<typeof MemoryPagePosition>;

export const MemoryListFilters = Closed({
  memory_store_id: IdOf('memoryStore'),
  /** Ends with `/`; `/` lists the whole store. */
  path_prefix: Type.String({ minLength: 1, maxLength: 1024 }),
  /** 0: every memory below the prefix; n: those at most n segments below it, deeper ones as prefixes. */
  depth: Type.Integer({ minimum: 0, maximum: 20 }),
  view: MemoryView,
});
export type MemoryListFilters = Static<typeof MemoryListFilters>;

export const MemoryListRequest = Closed({
  filters: MemoryListFilters,
  limit: Type.Integer({ minimum: 1, maximum: 100 }),
  after: Nullable(MemoryPagePosition),
});
export const MemoryListReply = Closed({ data: Type.Array(MemoryListItem), next: Nullable(MemoryPagePosition) });
