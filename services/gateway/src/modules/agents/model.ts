import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { agentSubjects } from '@shared/bus/subjects/catalog';
import { AgentModelConfigParams } from '@shared/schema/agent';
import { QueryBoolean } from '@shared/schema/common';
import { validate } from '@shared/validation/validate';
import { createdAtRange } from '../../domain/created-at';
import { jsonBody, type RawBody } from '../../http/raw-body';
import { pagedQuery, pageRoute } from '../../routing/pagination';
import type { BodyReader } from '../../routing/route';

export const AgentGetQuery = Type.Object(
  { version: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })) },
  { additionalProperties: false },
);

const createdAt = createdAtRange('gte', 'lte');

export const agentListRoute = pageRoute({
  endpoint: 'agents.list',
  query: pagedQuery({ ...createdAt.query, include_archived: Type.Optional(QueryBoolean) }),
  subject: agentSubjects.list,
  toFilters: (q) => ({ ...createdAt.filters(q), include_archived: q.include_archived === 'true' }),
});

/**
 * An agent body. `model` is a string-or-object union, for which the shared validator can only
 * say "does not match"; when the object form is the culprit, its own error (e.g.
 * `model.colour: unknown property`) is reported instead.
 */
export const agentBody =
  <T extends TSchema>(schema: T): BodyReader<Static<T>> =>
  (raw) => {
    try {
      return jsonBody(schema, raw);
    } catch (err) {
      const model = modelField(raw);
      if (model !== null && typeof model === 'object' && !Array.isArray(model)) validate(AgentModelConfigParams, model, 'model');
      throw err;
    }
  };

function modelField(body: RawBody | undefined): unknown {
  if (!body) return undefined;
  try {
    return (JSON.parse(body.text) as { model?: unknown } | null)?.model;
  } catch {
    return undefined;
  }
}
