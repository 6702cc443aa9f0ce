import { createHash } from 'node:crypto';
import { ApiError, invalidRequest, permissionDenied } from '@shared/errors/api-error';
import type { MemoryActor, MemoryUpdateBody, WriteActor } from '@shared/schema/memory';
import type { MemoryVersionOperation } from '@shared/schema/memory-version';
import type { Tenant } from '@shared/schema/tenant';
import type { MemoryRow, MemoryVersionRow } from '../db/schema';

/** The SDK's limits: content up to 100 kB (102,400 bytes); this product's: 2,000 memories a store. */
export const MEMORY_CONTENT_MAX_BYTES = 102_400;
export const MEMORIES_PER_STORE = 2_000;

/** What a memory's content is known by: the lowercase hex SHA-256 of its UTF-8 bytes, and their count. */
export function contentDigest(content: string): { contentSha256: string; contentSizeBytes: number } {
  const bytes = Buffer.from(content, 'utf8');
  return { contentSha256: createHash('sha256').update(bytes).digest('hex'), contentSizeBytes: bytes.length };
}

export function checkContent(content: string): void {
  if (Buffer.byteLength(content, 'utf8') > MEMORY_CONTENT_MAX_BYTES) {
    throw invalidRequest(`content: must be at most ${MEMORY_CONTENT_MAX_BYTES} bytes (100 kB) of UTF-8`);
  }
}

export function refuseFullStore(storeId: string, count: number): void {
  if (count >= MEMORIES_PER_STORE) {
    throw invalidRequest(`memory store ${storeId} already holds ${MEMORIES_PER_STORE} memories, the most a store may hold`);
  }
}

/** 409 `memory_precondition_failed_error`: the memory is not as the caller last saw it. */
export const preconditionFailed = (memoryId: string, what: string) =>
  new ApiError('memory_precondition_failed_error', `${what} does not match the current content_sha256 of memory ${memoryId}; retrieve it and retry`);

/** 409 `memory_path_conflict_error`, naming the memory in the way (SDK: use these fields, not the message). */
export function pathConflict(requested: string, blocking: { id: string; path: string }): ApiError {
  const how = blocking.path === requested ? 'is already the path of' : 'overlaps the path of';
  return new ApiError('memory_path_conflict_error', `path: ${requested} ${how} memory ${blocking.id} (${blocking.path})`, {
    fields: { conflicting_memory_id: blocking.id, conflicting_path: blocking.path },
  });
}

/** The author of a write: the one the gateway named, else the calling API key. */
export const writerOf = (actor: WriteActor | undefined, tenant: Tenant): WriteActor => actor ?? { type: 'api_actor', api_key_id: tenant.key_id };

/** Agents write memories but do not redact versions (SDK: `redacted_by` is never a session). */
export function refuseSessionRedactor(actor: WriteActor): void {
  if (actor.type === 'session_actor') throw permissionDenied('a session cannot redact memory versions');
}

/** An actor as its two columns, and back. */
export const actorColumns = (actor: WriteActor) =>
  actor.type === 'api_actor' ? { type: actor.type, id: actor.api_key_id } : { type: actor.type, id: actor.session_id };

export function actorOf(type: string | null, id: string | null): MemoryActor | null {
  if (type === null || id === null) return null;
  switch (type) {
    case 'api_actor':
      return { type, api_key_id: id };
    case 'session_actor':
      return { type, session_id: id };
    case 'user_actor':
      return { type, user_id: id };
    default:
      return { type: 'service_account_actor', service_account_id: id };
  }
}

/** What an update asks for: nothing to do, or the memory's next content and path. */
export type UpdatePlan = { change: false } | { change: true; content: string; path: string };

/**
 * The SDK's update rules: omitted content or path are kept; an update that changes nothing
 * writes no version; the `content_sha256` precondition must hold for the current content,
 * except that a request whose content and path the memory already has succeeds whatever it says.
 */
export function planUpdate(current: MemoryRow, update: MemoryUpdateBody): UpdatePlan {
  const content = update.content ?? current.content;
  const path = update.path ?? current.path;
  const asked = (update.content ?? update.path ?? null) !== null;
  if (asked && content === current.content && path === current.path) return { change: false };
  const expected = update.precondition?.content_sha256;
  if (expected !== undefined && expected !== current.contentSha256) throw preconditionFailed(current.id, 'precondition.content_sha256');
  if (content === current.content && path === current.path) return { change: false };
  return { change: true, content, path };
}

/** A new version of a memory: what it holds after `operation` (a deletion keeps only the path). */
export function newVersionRow(
  memory: Pick<MemoryRow, 'id' | 'organizationId' | 'workspaceId' | 'memoryStoreId' | 'path' | 'content'>,
  versionId: string,
  operation: MemoryVersionOperation,
  author: WriteActor,
  now: Date,
): MemoryVersionRow {
  const deleted = operation === 'deleted';
  const digest = deleted ? { contentSha256: null, contentSizeBytes: null } : contentDigest(memory.content);
  const by = actorColumns(author);
  return {
    id: versionId,
    organizationId: memory.organizationId,
    workspaceId: memory.workspaceId,
    memoryStoreId: memory.memoryStoreId,
    memoryId: memory.id,
    operation,
    path: memory.path,
    content: deleted ? null : memory.content,
    ...digest,
    createdByType: by.type,
    createdById: by.id,
    createdAt: now,
    redactedAt: null,
    redactedByType: null,
    redactedById: null,
  };
}
