import { Type } from '@sinclair/typebox';
import type { CallContext } from '@shared/bus/call-context';
import { memorySubjects, memoryVersionSubjects } from '@shared/bus/subjects/memories';
import { invalidRequest } from '@shared/errors/api-error';
import { Closed, IdOf } from '@shared/schema/common';
import { ContentSha256, MemoryPagePosition, MemoryView, type WriteActor } from '@shared/schema/memory';
import { MemoryVersionOperation } from '@shared/schema/memory-version';
import { createdAtRange } from '../../domain/created-at';
import { pagedQuery, pageRoute } from '../../routing/pagination';
import { json } from '../../routing/route-contract';

/** Memories and memory versions on the wire: their queries, list routes and 409 envelopes. */

/** `view`, on every route that answers a memory or a version. */
export const ViewQuery = Type.Object({ view: Type.Optional(MemoryView) }, { additionalProperties: false });
export const DeleteMemoryQuery = Type.Object({ expected_content_sha256: Type.Optional(ContentSha256) }, { additionalProperties: false });

/** The SDK's page caps: 100 items, 20 with `view=full` (up to 100 kB each). */
const FULL_VIEW_MAX_LIMIT = 20;
function viewWithin(limit: number | undefined, view: MemoryView | undefined): MemoryView {
  const chosen = view ?? 'basic';
  if (chosen === 'full' && (limit ?? 0) > FULL_VIEW_MAX_LIMIT) throw invalidRequest(`limit: must be at most ${FULL_VIEW_MAX_LIMIT} with view=full`);
  return chosen;
}

const memoryListQuery = pagedQuery({
  path_prefix: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
  depth: Type.Optional(Type.Integer({ minimum: 0, maximum: 20 })),
  view: Type.Optional(MemoryView),
});

export const memoryListRoute = pageRoute({
  endpoint: 'memories.list',
  subject: memorySubjects.list,
  position: MemoryPagePosition,
  query: memoryListQuery,
  toFilters: (q, params: { memory_store_id: string }) => ({
    memory_store_id: params.memory_store_id,
    path_prefix: q.path_prefix ?? '/',
    depth: q.depth ?? 0,
    view: viewWithin(q.limit, q.view),
  }),
});

const createdAt = createdAtRange('gte', 'lte');
const versionListQuery = pagedQuery({
  memory_id: Type.Optional(IdOf('memory')),
  operation: Type.Optional(MemoryVersionOperation),
  api_key_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  session_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  service_account_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  ...createdAt.query,
  view: Type.Optional(MemoryView),
});

export const memoryVersionListRoute = pageRoute({
  endpoint: 'memory_versions.list',
  subject: memoryVersionSubjects.list,
  query: versionListQuery,
  toFilters: (q, params: { memory_store_id: string }) => ({
    memory_store_id: params.memory_store_id,
    memory_id: q.memory_id,
    operation: q.operation,
    api_key_id: q.api_key_id,
    session_id: q.session_id,
    service_account_id: q.service_account_id,
    ...createdAt.filters(q),
    view: viewWithin(q.limit, q.view),
  }),
});

/**
 * Who a write is by, as the catalog records it: the calling API key (`api_actor`), or, for a work
 * item's sessions token (which routing/session-scope.ts lets reach its session's stores), the
 * session it speaks for (`session_actor`).
 */
export const callerActor = (call: CallContext): WriteActor => {
  const sessionId = call.tenant?.session_id;
  return sessionId === undefined ? { type: 'api_actor', api_key_id: call.tenant?.key_id ?? '' } : { type: 'session_actor', session_id: sessionId };
};

/** The 409s of a memory's own (SDK `BetaManagedAgentsMemory...ErrorObject`), beside the envelope every 409 may be. */
const memoryErrorEnvelope = (error: ReturnType<typeof Closed>) => Closed({ type: Type.Literal('error'), error, request_id: Type.String() });
export const PreconditionFailedEnvelope = memoryErrorEnvelope(Closed({ type: Type.Literal('memory_precondition_failed_error'), message: Type.String() }));
export const PathConflictEnvelope = memoryErrorEnvelope(
  Closed({
    type: Type.Literal('memory_path_conflict_error'),
    message: Type.String(),
    conflicting_memory_id: Type.String(),
    conflicting_path: Type.String(),
  }),
);
export const conflicts = {
  precondition: { 409: json(PreconditionFailedEnvelope) },
  path: { 409: json(PathConflictEnvelope) },
  both: { 409: json(Type.Union([PreconditionFailedEnvelope, PathConflictEnvelope])) },
};
