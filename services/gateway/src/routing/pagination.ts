import { Type, type Static, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import type { BusClient } from '../../../../shared/bus/bus-client';
import type { CallContext } from '../../../../shared/bus/call-context';
import type { Subject } from '../../../../shared/bus/subject';
import { openCursor, sealCursor } from '../../../../shared/cursor/page-cursor';
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
  const binding = {
    endpoint: route.endpoint,
    tenant: `${call.tenant?.organization_id}/${call.tenant?.workspace_id}`,
    filters: filters as Record<string, unknown>,
    limit,
  };
  const after = query.page === undefined ? null : openCursor(deps.cursorKey, binding, query.page);
  const reply = await deps.bus.call(route.subject, call, { filters, limit, after });
  const page = reply as { data: Array<Static<T>>; next: { created_at: string; id: string } | null };
  return { data: page.data, next_page: page.next ? sealCursor(deps.cursorKey, binding, page.next) : null };
}
