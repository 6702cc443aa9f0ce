import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { agentSubjects } from '@shared/bus/subjects/catalog';
import { Agent, AgentListFilters, AgentModelConfigParams } from '@shared/schema/agent';
import { QueryBoolean } from '@shared/schema/common';
import { validate } from '@shared/validation/validate';
import { jsonBody, RawBody } from '../../http/raw-body';
import { pagedQuery, type PageRoute } from '../../routing/pagination';
import { createdAtBound } from '../../http/created-at-bound';

/** Routes that take no query parameters besides `beta` still refuse unknown ones. */

export const AgentGetQuery = Type.Object(
  { version: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })) },
  { additionalProperties: false },
);

/** The SDK's `created_at[gte]` / `created_at[lte]` bounds, normalised to UTC milliseconds. */
export const CreatedAtQuery = {
  'created_at[gte]': Type.Optional(Type.String({ minLength: 1 })),
  'created_at[lte]': Type.Optional(Type.String({ minLength: 1 })),
};

export const AgentListQuery = pagedQuery({ ...CreatedAtQuery, include_archived: Type.Optional(QueryBoolean) });

export const agentListRoute: PageRoute<typeof AgentListQuery, typeof AgentListFilters, typeof Agent> = {
  endpoint: 'agents.list',
  query: AgentListQuery,
  subject: agentSubjects.list,
  toFilters: (q): AgentListFilters => ({
    created_at_gte: createdAtBound('gte', q['created_at[gte]']),
    created_at_lte: createdAtBound('lte', q['created_at[lte]']),
    include_archived: q.include_archived === 'true',
  }),
};

/**
 * An agent body. `model` is a string-or-object union, for which the shared validator can only
 * say "does not match"; when the object form is the culprit, its own error (e.g.
 * `model.colour: unknown property`) is reported instead.
 */
export function agentBody<T extends TSchema>(schema: T, body: unknown): Static<T> {
  try {
    return jsonBody(schema, body);
  } catch (err) {
    const model = modelField(body);
    if (model !== null && typeof model === 'object' && !Array.isArray(model)) validate(AgentModelConfigParams, model, 'model');
    throw err;
  }
}

function modelField(body: unknown): unknown {
  if (!(body instanceof RawBody)) return undefined;
  try {
    return (JSON.parse(body.text) as { model?: unknown } | null)?.model;
  } catch {
    return undefined;
  }
}
