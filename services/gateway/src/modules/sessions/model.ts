import { Type } from '@sinclair/typebox';
import { sessionResourceSubjects, sessionSubjects } from '@shared/bus/subjects/sessions';
import { invalidRequest } from '@shared/errors/api-error';
import { IdOf, QueryBoolean } from '@shared/schema/common';
import { Session, SESSION_STATUSES, SessionListFilters, SessionListOrder, type SessionStatus } from '@shared/schema/session';
import { createdAtRange } from '../../domain/created-at';
import { parseQuery } from '../../http/query';
import { pagedQuery, pageRoute, type BidirectionalPageQuery, type BidirectionalPageRoute } from '../../routing/pagination';

const createdAt = createdAtRange('gt', 'gte', 'lt', 'lte');

/** Every parameter of `SessionListParams` but `statuses`, which is an array (see readSessionListQuery). */
export const SessionListQuery = pagedQuery({
  deployment_id: Type.Optional(IdOf('deployment')),
  agent_id: Type.Optional(IdOf('agent')),
  agent_version: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
  ...createdAt.query,
  include_archived: Type.Optional(QueryBoolean),
  memory_store_id: Type.Optional(IdOf('memoryStore')),
  order: Type.Optional(SessionListOrder),
});

/**
 * `statuses` is the one array parameter. The SDK writes arrays as `statuses[]=idle&statuses[]=running`
 * (qs `arrayFormat: 'brackets'`); its documentation says "repeat the parameter", so plain
 * `statuses=idle&statuses=running` is accepted too. Every value must be a session status.
 */
const STATUS_PARAMS = ['statuses[]', 'statuses'];

function takeStatuses(url: URL): { statuses: SessionStatus[] | undefined; rest: URL } {
  const rest = new URL(url);
  const given: Array<[string, string]> = [];
  for (const name of STATUS_PARAMS) {
    for (const value of url.searchParams.getAll(name)) given.push([name, value]);
    rest.searchParams.delete(name);
  }
  if (given.length === 0) return { statuses: undefined, rest };
  for (const [name, value] of given) {
    if (!(SESSION_STATUSES as readonly string[]).includes(value)) {
      throw invalidRequest(`${name}: must be one of ${SESSION_STATUSES.map((s) => JSON.stringify(s)).join(', ')}, got ${JSON.stringify(value.slice(0, 64))}`);
    }
  }
  // One canonical form (deduplicated, in SESSION_STATUSES order): a cursor binds the set, not the spelling.
  const wanted = new Set(given.map(([, value]) => value));
  return { statuses: SESSION_STATUSES.filter((s) => wanted.has(s)), rest };
}

/**
 * GET /v1/sessions query: `SessionListParams` as the SDK sends it. `agent_version` narrows an
 * agent's sessions ("only applies when agent_id is also set"), so alone it is refused rather
 * than silently ignored. Archived sessions are left out unless `include_archived=true`.
 */
export function readSessionListQuery(url: URL): BidirectionalPageQuery<SessionListFilters> {
  const { statuses, rest } = takeStatuses(url);
  const q = parseQuery(rest, SessionListQuery);
  if (q.agent_version !== undefined && q.agent_id === undefined) {
    throw invalidRequest('agent_version: only applies together with agent_id');
  }
  return {
    filters: {
      deployment_id: q.deployment_id,
      agent_id: q.agent_id,
      agent_version: q.agent_version,
      ...createdAt.filters(q),
      include_archived: q.include_archived === 'true',
      memory_store_id: q.memory_store_id,
      statuses,
      order: q.order ?? 'desc',
    },
    limit: q.limit ?? 20,
    page: q.page,
  };
}

export const sessionListRoute: BidirectionalPageRoute<typeof SessionListFilters, typeof Session> = {
  endpoint: 'sessions.list',
  subject: sessionSubjects.list,
  // The whole query as the document shows it: `statuses` is the repeated `statuses[]=` parameter.
  query: Type.Object({ ...SessionListQuery.properties, statuses: SessionListFilters.properties.statuses }, { additionalProperties: false }),
  readQuery: readSessionListQuery,
};

/** The session is part of the filters, so a cursor from one session's resources is refused on another's. */
export const sessionResourceListRoute = pageRoute({
  endpoint: 'sessions.resources.list',
  query: pagedQuery({}),
  subject: sessionResourceSubjects.list,
  toFilters: (_q, params: { session_id: string }) => ({ session_id: params.session_id }),
});
