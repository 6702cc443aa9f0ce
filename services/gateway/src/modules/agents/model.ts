import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { agentSubjects } from '@shared/bus/subjects/catalog';
import { AgentModelConfigParams } from '@shared/schema/agent';
import { validate } from '@shared/validation/validate';
import { jsonBody, type RawBody } from '../../http/raw-body';
import { archivableListQuery } from '../../routing/archivable-list-query';
import { pagedQuery, pageRoute } from '../../routing/pagination';
import type { BodyReader } from '../../routing/route';
import { json } from '../../routing/route-contract';

export const AgentGetQuery = Type.Object(
  { version: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })) },
  { additionalProperties: false },
);

export const agentListRoute = pageRoute({ endpoint: 'agents.list', subject: agentSubjects.list, ...archivableListQuery });

/** The agent is part of the filters, so a cursor from one agent's versions is refused on another's. */
export const agentVersionListRoute = pageRoute({
  endpoint: 'agents.versions.list',
  query: pagedQuery({}),
  subject: agentSubjects.listVersions,
  toFilters: (_query, params: { agent_id: string }) => ({ agent_id: params.agent_id }),
});

/**
 * An agent body. `model` is a string-or-object union, for which the shared validator can only
 * say "does not match"; when the object form is the culprit, its own error (e.g.
 * `model.colour: unknown property`) is reported instead.
 */
export const agentBody = <T extends TSchema>(schema: T): BodyReader<Static<T>> => ({
  media: json(schema),
  read: (raw) => {
    try {
      return jsonBody(schema, raw);
    } catch (err) {
      const model = modelField(raw);
      if (model !== null && typeof model === 'object' && !Array.isArray(model)) validate(AgentModelConfigParams, model, 'model');
      throw err;
    }
  },
});

function modelField(body: RawBody | undefined): unknown {
  if (!body) return undefined;
  try {
    return (JSON.parse(body.text) as { model?: unknown } | null)?.model;
  } catch {
    return undefined;
  }
}
