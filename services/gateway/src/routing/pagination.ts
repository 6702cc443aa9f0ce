import { Type, type Static, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import type { BusClient } from '@shared/bus/bus-client';
import type { CallContext } from '@shared/bus/call-context';
import type { Subject } from '@shared/bus/subject';
import { openCursor, sealCursor, type CursorBinding } from '@shared/cursor/page-cursor';
import type { PagePosition } from '@shared/schema/common';
import { parseQuery } from '../http/query';

/** The paging parameters every cursor-paginated list accepts, plus its own filters. */
export const pagedQuery = <P extends TProperties>(filters: P, maxLimit = 100) =>
  Type.Object(
    {
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: maxLimit })),
      page: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
      ...filters,
    },
    { additionalProperties: false },
  );

export interface PageRoute<Q extends TObject, F extends TSchema, T extends TSchema> {
  /** Names the list a cursor belongs to; a cursor from any other list is refused. */
  endpoint: string;
  query: Q;
  /** A list subject: request `ListRequest(filters)`, reply `ListReply(item)`. */
  subject: Subject;
  toFilters: (query: Static<Q>) => Static<F>;
  defaultLimit?: number;
}

/**
 * Serves one page: the cursor is opened against the endpoint, tenant, filters and limit it was
 * issued for, the service returns the position where the page stopped, and that is sealed anew.
 */
export async function servePage<Q extends TObject, F extends TSchema, T extends TSchema>(
  route: PageRoute<Q, F, T>,
  deps: { bus: BusClient; cursorKey: Buffer },
  call: CallContext,
  url: URL,
): Promise<{ data: Array<Static<T>>; next_page: string | null }> {
  const query = parseQuery(url, route.query) as Static<Q> & { limit?: number; page?: string };
  const filters = route.toFilters(query);
  const limit = query.limit ?? route.defaultLimit ?? 20;
  const binding = cursorBinding(route.endpoint, call, filters, limit);
  const after = query.page === undefined ? null : openCursor(deps.cursorKey, binding, query.page);
  const reply = await deps.bus.call(route.subject, call, { filters, limit, after });
  const page = reply as { data: Array<Static<T>>; next: { created_at: string; id: string } | null };
  return { data: page.data, next_page: page.next ? sealCursor(deps.cursorKey, binding, page.next) : null };
}

function cursorBinding(endpoint: string, call: CallContext, filters: unknown, limit: number): CursorBinding {
  return {
    endpoint,
    tenant: `${call.tenant?.organization_id}/${call.tenant?.workspace_id}`,
    filters: filters as Record<string, unknown>,
    limit,
  };
}

/** What a bidirectional list reads from its query string: filters, page size, and the cursor if any. */
export interface BidirectionalPageQuery<F> {
  filters: F;
  limit: number;
  page?: string;
}

export interface BidirectionalPageRoute<F> {
  /** Names the list a cursor belongs to; a cursor from any other list is refused. */
  endpoint: string;
  /**
   * A list subject whose request is `{filters, limit, after, before}` and whose reply is
   * `{data, next, prev}`: positions the following page starts after and the preceding one before.
   */
  subject: Subject;
  /** Parses and checks the query string (the list's own syntax, e.g. repeated array parameters). */
  readQuery: (url: URL) => BidirectionalPageQuery<F>;
}

type Direction = 'after' | 'before';

/**
 * A cursor's direction is bound into it like its endpoint: a `prev_page` cursor is sealed for
 * `<endpoint>#before`, so it cannot be turned into a `next_page` one, and opening tries the two
 * bindings (a cursor authenticates under exactly one of them).
 */
const directedEndpoint = (endpoint: string, direction: Direction) => (direction === 'after' ? endpoint : `${endpoint}#before`);

function openDirectedCursor(key: Buffer, binding: CursorBinding, token: string): { direction: Direction; position: PagePosition } {
  try {
    return { direction: 'after', position: openCursor(key, binding, token) };
  } catch {
    const before = { ...binding, endpoint: directedEndpoint(binding.endpoint, 'before') };
    return { direction: 'before', position: openCursor(key, before, token) };
  }
}

/**
 * Serves one page of a list that pages both ways (the SDK's `BidirectionalPageCursor`):
 * `next_page` continues in the list's order, `prev_page` returns the page before this one in the
 * same order (null on the first page). Both are bound, like every cursor, to the endpoint,
 * tenant, filters and limit they were issued for.
 */
export async function serveBidirectionalPage<F, T>(
  route: BidirectionalPageRoute<F>,
  deps: { bus: BusClient; cursorKey: Buffer },
  call: CallContext,
  url: URL,
): Promise<{ data: T[]; next_page: string | null; prev_page: string | null }> {
  const { filters, limit, page } = route.readQuery(url);
  const binding = cursorBinding(route.endpoint, call, filters, limit);
  const cursor = page === undefined ? null : openDirectedCursor(deps.cursorKey, binding, page);
  const reply = await deps.bus.call(route.subject, call, {
    filters,
    limit,
    after: cursor?.direction === 'after' ? cursor.position : null,
    before: cursor?.direction === 'before' ? cursor.position : null,
  });
  const result = reply as { data: T[]; next: PagePosition | null; prev: PagePosition | null };
  const seal = (direction: Direction, position: PagePosition | null) =>
    position ? sealCursor(deps.cursorKey, { ...binding, endpoint: directedEndpoint(route.endpoint, direction) }, position) : null;
  return { data: result.data, next_page: seal('after', result.next), prev_page: seal('before', result.prev) };
}
