import { Type } from '@sinclair/typebox';
import { sessionEventSubjects } from '@shared/bus/subjects/session-events';
import { invalidRequest } from '@shared/errors/api-error';
import { IdOf } from '@shared/schema/common';
import { SESSION_EVENT_TYPES, SessionEvent, SessionEventListFilters, SessionEventListOrder } from '@shared/schema/session-event';
import { EventDelta, EventStart, PREVIEWED_EVENT_TYPES, PreviewedEventType } from '@shared/schema/session-preview';
import { createdAtRange } from '../../domain/created-at';
import { NO_QUERY, parseQuery } from '../../http/query';
import { pagedQuery, type BidirectionalPageQuery, type BidirectionalPageRoute } from '../../routing/pagination';
import type { Media } from '../../routing/route-contract';

const createdAt = createdAtRange('gt', 'gte', 'lt', 'lte');

/**
 * Every parameter of the SDK's `EventListParams` but `types`, which is an array. `limit` goes to
 * 1000: the SDK's own session tool runner reads a session's history with `limit: 1000`.
 */
const EventListQuery = pagedQuery({ ...createdAt.query, order: Type.Optional(SessionEventListOrder) }, 1000);

/** The list's whole query as the document shows it: `types` is the repeated `types[]=` parameter. */
const EventListQueryWithTypes = Type.Object(
  { ...EventListQuery.properties, types: SessionEventListFilters.properties.types },
  { additionalProperties: false },
);

/**
 * Repeated array parameters as the SDK writes them (`types[]=a&types[]=b`, qs brackets) or plainly
 * repeated (`types=a&types=b`); each must be an event type the SDK names. `name` reads them off
 * the URL so the rest is parsed by the schema.
 */
export function takeArrayParameter<T extends string>(url: URL, name: string, allowed: readonly T[]): { values: T[] | undefined; rest: URL } {
  const rest = new URL(url);
  const given: Array<[string, string]> = [];
  for (const spelling of [`${name}[]`, name]) {
    for (const value of url.searchParams.getAll(spelling)) given.push([spelling, value]);
    rest.searchParams.delete(spelling);
  }
  if (given.length === 0) return { values: undefined, rest };
  for (const [spelling, value] of given) {
    if (!(allowed as readonly string[]).includes(value)) {
      throw invalidRequest(`${spelling}: ${JSON.stringify(value.slice(0, 64))} is not an event type the API knows`);
    }
  }
  // One canonical form (deduplicated, in the declared order): a cursor binds the set, not the spelling.
  const wanted = new Set(given.map(([, value]) => value));
  return { values: allowed.filter((t) => wanted.has(t)), rest };
}

/** GET /v1/sessions/{id}/events query; events come oldest first unless `order=desc`. */
export function readEventListQuery(sessionId: string, url: URL): BidirectionalPageQuery<SessionEventListFilters> {
  const { values: types, rest } = takeArrayParameter(url, 'types', SESSION_EVENT_TYPES);
  const q = parseQuery(rest, EventListQuery);
  return {
    filters: { session_id: sessionId, order: q.order ?? 'asc', types, ...createdAt.filters(q) },
    limit: q.limit ?? 20,
    page: q.page,
  };
}

/** The stream's query as the document shows it. */
export const EventStreamQuery = Type.Object({ event_deltas: Type.Optional(Type.Array(PreviewedEventType)) }, { additionalProperties: false });

/**
 * The stream's query: the event types to preview while they are produced (`event_deltas`,
 * repeatable; stream-previews.ts), none unless asked.
 */
export function readEventStreamQuery(url: URL): ReadonlySet<PreviewedEventType> {
  const { values, rest } = takeArrayParameter(url, 'event_deltas', PREVIEWED_EVENT_TYPES);
  parseQuery(rest, NO_QUERY);
  return new Set(values ?? []);
}

/** The stream's own header: resume right after this event of the session's log (what the SDK sends on reconnecting). */
export const EventStreamHeaders = Type.Object({
  'last-event-id': Type.Optional(
    Type.String({ ...IdOf('sessionEvent'), description: 'Resume after this event of the session; without it the stream starts at the log\'s end.' }),
  ),
});

/** Server-Sent Events: each event is named by its type, carries its id (what `Last-Event-ID` resumes from) and the event as its data. */
export const SessionEventStream: Media = {
  mediaType: 'text/event-stream',
  schema: Type.String({ description: 'Server-Sent Events: `event: <type>`, `id: <event id>`, `data: <the event as JSON>`; comments keep an idle stream alive.' }),
  // With `event_deltas`, previews of events being produced come between the log's events.
  itemSchema: Type.Union([SessionEvent, EventStart, EventDelta]),
};

/** The session id is bound into every cursor with the filters, so a cursor of one session's log is refused on another's. */
export const eventListRoute: BidirectionalPageRoute<typeof SessionEventListFilters, typeof SessionEvent, { session_id: string }> = {
  endpoint: 'sessions.events.list',
  subject: sessionEventSubjects.list,
  query: EventListQueryWithTypes,
  readQuery: (url, params) => readEventListQuery(params.session_id, url),
};
