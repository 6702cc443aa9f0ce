import { Type, type Static, type TArray, type TInteger, type TNull, type TObject, type TProperties, type TSchema, type TUnion } from '@sinclair/typebox';
import type { BusClient } from '@shared/bus/bus-client';
import type { CallContext } from '@shared/bus/call-context';
import type { Subject } from '@shared/bus/subject';
import { openCursor, sealCursor, type CursorBinding } from '@shared/cursor/page-cursor';
import { BidirectionalPage, Page, type ListReply, type ListRequest, type PagePosition } from '@shared/schema/common';
import { parseQuery } from '../http/query';
import type { GuardedContext, SelfParsingRoute } from './route';

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

/** Page size when the query names none. */
const DEFAULT_LIMIT = 20;

/** A list subject: request `ListRequest(filters)`, reply `ListReply(item)` (shared/schema/common.ts). */
export type ListSubject<F extends TSchema, T extends TSchema, Pos extends TSchema = typeof PagePosition> = Subject<
  Pos extends typeof PagePosition ? ReturnType<typeof ListRequest<F>> : TObject<{ filters: F; limit: TInteger; after: TUnion<[Pos, TNull]> }>,
  Pos extends typeof PagePosition ? ReturnType<typeof ListReply<T>> : TObject<{ data: TArray<T>; next: TUnion<[Pos, TNull]> }>
>;

/** What pages need from the gateway's deps. */
export interface PagingDeps {
  bus: BusClient;
  config: { cursorKey: Buffer };
}

/**
 * One list route, typed by its subject: `toFilters` must produce the subject's filters, and the
 * page served carries the subject's items. Declare it with `pageRoute({...})`, which infers the
 * types from the subject.
 */
export interface PageRoute<F extends TSchema, T extends TSchema, Q extends TObject, P = unknown, Pos extends TSchema = typeof PagePosition> {
  /** Names the list a cursor belongs to; a cursor from any other list is refused. */
  endpoint: string;
  query: Q;
  subject: ListSubject<F, T, Pos>;
  /** Where a page stops, when the list is not in creation-time order (memories: in path order). */
  position?: Pos;
  /** The bus filters of a parsed query (and the route's path parameters, e.g. the vault of its credentials). */
  toFilters: (query: Static<Q>, params: P) => Static<F>;
}

export const pageRoute = <F extends TSchema, T extends TSchema, Q extends TObject, P = unknown, Pos extends TSchema = typeof PagePosition>(
  route: PageRoute<F, T, Q, P, Pos>,
) => route;

/**
 * Serves one page: the cursor is opened against the endpoint, tenant, filters and limit it was
 * issued for, the service returns the position where the page stopped, and that is sealed anew.
 * Returned as the route's `route.list` entry: its query, its reply (`Page` of the subject's
 * items) and what serves it.
 */
export function servePage<T extends TSchema, Q extends TObject, P, Pos extends TSchema = typeof PagePosition>(
  route: PageRoute<TSchema, T, Q, P, Pos>,
  deps: PagingDeps,
): SelfParsingRoute<P> {
  const serve = async ({ call, url, params }: GuardedContext<P>) => {
    const query: { limit?: number; page?: string } & Static<Q> = parseQuery(url, route.query);
    const filters = route.toFilters(query, params);
    const limit = query.limit ?? DEFAULT_LIMIT;
    const binding = cursorBinding(route.endpoint, call, filters, limit);
    const after = query.page === undefined ? null : openCursor(deps.config.cursorKey, binding, query.page, route.position);
    const page = await deps.bus.call(route.subject as ListSubject<TSchema, T, Pos>, call, { filters, limit, after } as never);
    return { data: page.data, next_page: page.next ? sealCursor(deps.config.cursorKey, binding, page.next) : null };
  };
  return { query: route.query, reply: Page(route.subject.reply.properties.data.items), serve };
}

/** The tenant's part of a cursor binding: a cursor from one workspace is refused in another. */
export function cursorBinding(endpoint: string, call: CallContext, filters: unknown, limit: number): CursorBinding {
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

type TPosition = TUnion<[typeof PagePosition, TNull]>;

/**
 * A list subject that pages both ways: request `{filters, limit, after, before}`, reply
 * `{data, next, prev}`: positions the following page starts after and the preceding one before.
 */
export type BidirectionalListSubject<F extends TSchema, T extends TSchema> = Subject<
  TObject<{ filters: F; limit: TInteger; after: TPosition; before: TPosition }>,
  TObject<{ data: TArray<T>; next: TPosition; prev: TPosition }>
>;

export interface BidirectionalPageRoute<F extends TSchema, T extends TSchema, P = unknown> {
  /** Names the list a cursor belongs to; a cursor from any other list is refused. */
  endpoint: string;
  subject: BidirectionalListSubject<F, T>;
  /** The query `readQuery` reads, as the document shows it (an array property is a repeated `name[]=` parameter). */
  query: TObject;
  /** Parses and checks the query string (the list's own syntax, e.g. repeated array parameters). */
  readQuery: (url: URL, params: P) => BidirectionalPageQuery<Static<F>>;
}

type Direction = 'after' | 'before';

/**
 * A cursor's direction is bound into it like its endpoint: a `prev_page` cursor is sealed for
 * `<endpoint>#before`, so it cannot be turned into a `next_page` one, and opening tries the two
 * bindings (a cursor authenticates under exactly one of them).
 */
export const directedEndpoint = (endpoint: string, direction: Direction) => (direction === 'after' ? endpoint : `${endpoint}#before`);

export function openDirectedCursor(key: Buffer, binding: CursorBinding, token: string): { direction: Direction; position: PagePosition } {
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
 * tenant, filters and limit they were issued for. Returned as the route's `route.list` entry.
 */
export function serveBidirectionalPage<T extends TSchema, P>(route: BidirectionalPageRoute<TSchema, T, P>, deps: PagingDeps): SelfParsingRoute<P> {
  const serve = async ({ call, url, params }: GuardedContext<P>) => {
    const { filters, limit, page } = route.readQuery(url, params);
    const binding = cursorBinding(route.endpoint, call, filters, limit);
    const cursor = page === undefined ? null : openDirectedCursor(deps.config.cursorKey, binding, page);
    const result = await deps.bus.call(route.subject, call, {
      filters,
      limit,
      after: cursor?.direction === 'after' ? cursor.position : null,
      before: cursor?.direction === 'before' ? cursor.position : null,
    });
    const seal = (direction: Direction, position: PagePosition | null) =>
      position ? sealCursor(deps.config.cursorKey, { ...binding, endpoint: directedEndpoint(route.endpoint, direction) }, position) : null;
    return { data: result.data, next_page: seal('after', result.next), prev_page: seal('before', result.prev) };
  };
  return { query: route.query, reply: BidirectionalPage(route.subject.reply.properties.data.items), serve };
}
