import { Type, type TSchema } from '@sinclair/typebox';
import type { ErrorStatus, Media, RouteContract } from '../routing/route-contract';
import type { Json, SchemaComponents } from './schema-components';
import { envelopeName, envelopeOf, ERROR_TYPE_OF_STATUS, errorStatuses, STATUS_MEANING } from './error-responses';

/** The responses the document lists: a route's success, its own other answers, and the shared error answers. */

/** What every answer to a known caller says about its rate limit (services/gateway/src/limits/). */
const RATE_LIMIT_HEADERS = {
  'anthropic-ratelimit-requests-limit': { description: 'Requests the binding bucket holds when full.', schema: { type: 'integer' } },
  'anthropic-ratelimit-requests-remaining': { description: 'Whole requests left in it now.', schema: { type: 'integer' } },
  'anthropic-ratelimit-requests-reset': { description: 'When it is full again (RFC 3339).', schema: { type: 'string', format: 'date-time' } },
};

/** Whether a JSON reply may be null: a null reply is answered 204 (routing/resource-module.ts), so 200 never carries it. */
function splitNull(schema: TSchema): { schema: TSchema; nullable: boolean } {
  const members = (schema.anyOf as TSchema[] | undefined) ?? [];
  const rest = members.filter((member) => member.type !== 'null');
  if (rest.length === members.length) return { schema, nullable: false };
  return { schema: rest.length === 1 ? rest[0]! : Type.Union(rest), nullable: true };
}

export function mediaContent(components: SchemaComponents, media: Media): Json {
  return {
    [media.mediaType]: {
      schema: components.json(media.schema),
      // OpenAPI 3.2's `itemSchema` (one item of a stream), as an extension until then.
      ...(media.itemSchema ? { 'x-itemSchema': components.json(media.itemSchema) } : {}),
    },
  };
}

/** The error answers, one per status, written once under `#/components/responses/` as the routes refer to them. */
export class ErrorResponses {
  private readonly written: Record<string, Json> = {};
  constructor(private readonly components: SchemaComponents) {}

  ref(status: ErrorStatus): Json {
    const key = `Error${status}`;
    const type = ERROR_TYPE_OF_STATUS[status];
    this.written[key] ??= {
      description: `\`${type}\`: ${STATUS_MEANING[status]}`,
      ...(status === 429
        ? { headers: { 'retry-after': { description: 'Seconds until a request is admitted again.', schema: { type: 'integer' } }, ...RATE_LIMIT_HEADERS } }
        : {}),
      content: { 'application/json': { schema: this.components.name(envelopeOf(type), envelopeName(type)) } },
    };
    return { $ref: `#/components/responses/${key}` };
  }

  /** The ones referred to so far, by name. */
  all(): Record<string, Json> {
    return Object.fromEntries(Object.entries(this.written).sort(([a], [b]) => a.localeCompare(b)));
  }
}

/** A route's responses by status: 200 (and 204 for a null reply), then its errors and other answers in order. */
export function routeResponses(components: SchemaComponents, errorResponses: ErrorResponses, route: RouteContract): Record<string, Json> {
  const responses: Record<string, Json> = {};
  const reply = route.reply.mediaType === 'application/json' ? splitNull(route.reply.schema) : { schema: route.reply.schema, nullable: false };
  responses['200'] = {
    description: 'Success.',
    ...(route.access === 'api' ? { headers: RATE_LIMIT_HEADERS } : {}),
    content: mediaContent(components, { ...route.reply, schema: reply.schema }),
  };
  if (reply.nullable) responses['204'] = { description: 'Nothing to answer (a null reply).' };
  const errors: number[] = errorStatuses(route);
  const statuses = new Set<number>([...errors, ...Object.keys(route.otherReplies ?? {}).map(Number)]);
  for (const status of [...statuses].sort((a, b) => a - b)) {
    const other = route.otherReplies?.[status];
    const error = errors.includes(status) ? (status as ErrorStatus) : undefined;
    if (other && error) {
      // Both the route's own answer and the envelope (a readiness probe refused during shutdown).
      const type = ERROR_TYPE_OF_STATUS[error];
      const schema = { anyOf: [components.json(other.schema), components.name(envelopeOf(type), envelopeName(type))] };
      responses[status] = {
        description: `The route's own answer, or \`${type}\`: ${STATUS_MEANING[error]}`,
        content: { [other.mediaType]: { schema } },
      };
    } else if (other) {
      responses[status] = { description: 'See the schema.', content: mediaContent(components, other) };
    } else if (error) {
      responses[status] = errorResponses.ref(error);
    }
  }
  return responses;
}
