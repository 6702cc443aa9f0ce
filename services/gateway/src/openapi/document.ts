import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import { IdOf } from '@shared/schema/common';
import { WORKSPACE_HEADER } from '../domain/permission';
import { acceptedBetas, API_VERSION, REQUIRED_BETA, requiresVersionHeaders, SUPPORTED_VERSIONS } from '../domain/versioning';
import type { ErrorStatus, Media, RouteContract } from '../routing/route-contract';
import { pathIdKind } from '../routing/path-id';
import { SchemaComponents, type Json, type JsonObject } from './schema-components';
import { schemaNames } from './schema-names';
import { envelopeName, envelopeOf, ERROR_TYPE_OF_STATUS, errorStatuses, STATUS_MEANING } from './error-responses';

/** What `/v1/openapi.json` answers: this document (its shape is OpenAPI's, checked by a validator in the tests). */
export const OpenApiDocument = Type.Object(
  { openapi: Type.String({ pattern: '^3\\.1\\.\\d+$' }), info: Type.Object({ title: Type.String(), version: Type.String() }), paths: Type.Object({}) },
  { description: 'An OpenAPI 3.1 document: this one.' },
);

/** A route's path in OpenAPI's syntax: `/v1/vaults/:vault_id` -> `/v1/vaults/{vault_id}`. */
const openApiPath = (path: string) => path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');

const pathParameters = (path: string) => [...path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!);

/** `post /v1/vaults/{vault_id}/credentials` -> `postVaultsVaultIdCredentials`: unique, since method and path are. */
function operationId(route: RouteContract): string {
  const words = route.path
    .split(/[/_.:-]+/)
    .filter((word) => word !== '' && word !== 'v1')
    .map((word) => word[0]!.toUpperCase() + word.slice(1));
  return route.method.toLowerCase() + words.join('');
}

/** Open routes are the service's own; API routes are grouped by their collection (`/v1/<collection>/...`). */
const tagOf = (route: RouteContract) => (route.access === 'open' ? 'service' : route.path.split('/')[2]!);

/** Whether a JSON reply may be null: a null reply is answered 204 (routing/resource-module.ts), so 200 never carries it. */
function splitNull(schema: TSchema): { schema: TSchema; nullable: boolean } {
  const members = (schema.anyOf as TSchema[] | undefined) ?? [];
  const rest = members.filter((member) => member.type !== 'null');
  if (rest.length === members.length) return { schema, nullable: false };
  return { schema: rest.length === 1 ? rest[0]! : Type.Union(rest), nullable: true };
}

export interface DocumentOptions {
  /** API_HEADER_PREFIX: the `-version` and `-beta` headers' prefix. */
  headerPrefix: string;
}

/**
 * The OpenAPI 3.1 document of the gateway, from its route table alone: each route's contract
 * (routing/route-contract.ts) gives its path, query, body and reply schemas, which are the
 * TypeBox schemas the gateway validates with and the bus subjects answer with; the rules every
 * route shares (credentials, versioning, the error envelope by status) come from where they are
 * enforced. Nothing here knows the framework.
 */
export function openApiDocument(routes: readonly RouteContract[], options: DocumentOptions): JsonObject {
  const components = new SchemaComponents(schemaNames());
  const versionHeader = `${options.headerPrefix}-version`;
  const betaHeader = `${options.headerPrefix}-beta`;

  const versionSchema = Type.Union(SUPPORTED_VERSIONS.map((v) => Type.Literal(v)));
  const versionList = SUPPORTED_VERSIONS.map((v) => `\`${v}\``).join(', ');
  const header = (name: string, required: boolean, schema: TSchema, description: string) => ({
    name,
    in: 'header',
    required,
    schema: components.json(schema),
    description,
  });
  const parameters = {
    Beta: {
      name: 'beta',
      in: 'query',
      // Required under 2023-06-01 only; OpenAPI cannot make a parameter depend on a header.
      required: false,
      schema: { type: 'string', const: 'true' },
      description:
        `At most once, with the value \`true\`. Required under \`${versionHeader}: 2023-06-01\` (and when no version is sent); ` +
        `optional under \`2026-10-21\`, what SDK 1.x sends.`,
    },
    Version: header(versionHeader, true, versionSchema, `The API version (${versionList}). Also accepted as \`vendor-version\`.`),
    OptionalVersion: header(
      versionHeader,
      false,
      versionSchema,
      `The API version (${versionList}): optional here, but checked when sent; without it the request follows ${API_VERSION}. ` +
        'Also accepted as `vendor-version`.',
    ),
    Workspace: header(WORKSPACE_HEADER, false, Type.String(), 'When sent, must be the workspace of the key (else 403).'),
    IdempotencyKey: header(
      'Idempotency-Key',
      false,
      Type.String({ minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' }),
      'Makes a retry of this POST safe: the first answer is kept 24 h and given again (with `idempotent-replayed: true`) ' +
        'to a retry of the same request; the same key with another request, or while the first still runs, is 409.',
    ),
  } satisfies Record<string, Json>;
  // What every answer to a known caller says about its rate limit (services/gateway/src/limits/).
  const rateLimitHeaders = {
    'anthropic-ratelimit-requests-limit': { description: 'Requests the binding bucket holds when full.', schema: { type: 'integer' } },
    'anthropic-ratelimit-requests-remaining': { description: 'Whole requests left in it now.', schema: { type: 'integer' } },
    'anthropic-ratelimit-requests-reset': { description: 'When it is full again (RFC 3339).', schema: { type: 'string', format: 'date-time' } },
  };
  const betaParameter = (path: string) => {
    const required = requiresVersionHeaders(path);
    const betas = acceptedBetas(path).map((beta) => `\`${beta}\``).join(' or ');
    return header(
      betaHeader,
      required,
      Type.String(),
      `Comma-separated betas, one of which must be ${betas}${required ? '' : ' (optional here, but checked when sent)'}. Also accepted as \`vendor-beta\`.`,
    );
  };

  const errorResponses: Record<string, Json> = {};
  const errorResponse = (status: ErrorStatus): Json => {
    const key = `Error${status}`;
    const type = ERROR_TYPE_OF_STATUS[status];
    errorResponses[key] ??= {
      description: `\`${type}\`: ${STATUS_MEANING[status]}`,
      ...(status === 429
        ? { headers: { 'retry-after': { description: 'Seconds until a request is admitted again.', schema: { type: 'integer' } }, ...rateLimitHeaders } }
        : {}),
      content: { 'application/json': { schema: components.name(envelopeOf(type), envelopeName(type)) } },
    };
    return { $ref: `#/components/responses/${key}` };
  };

  const mediaContent = (media: Media): Json => ({
    [media.mediaType]: {
      schema: components.json(media.schema),
      // OpenAPI 3.2's `itemSchema` (one item of a stream), as an extension until then.
      ...(media.itemSchema ? { 'x-itemSchema': components.json(media.itemSchema) } : {}),
    },
  });

  const headerParameters = (headers: TObject | undefined): Json[] =>
    Object.entries(headers?.properties ?? {}).map(([name, schema]) =>
      header(name, headers!.required?.includes(name) ?? false, schema, schema.description ?? ''),
    );

  const queryParameters = (query: TObject | undefined): Json[] =>
    Object.entries(query?.properties ?? {}).map(([name, schema]) => {
      const repeated = schema.type === 'array';
      return {
        // An array is the repeated `name[]=` parameter the SDK writes; plainly repeated `name=` is read the same.
        name: repeated ? `${name}[]` : name,
        in: 'query',
        required: query!.required?.includes(name) ?? false,
        schema: components.json(schema),
        ...(repeated ? { style: 'form', explode: true } : {}),
        ...(schema.description ? { description: schema.description } : {}),
      };
    });

  const operation = (route: RouteContract): Json => {
    const parameters: Json[] = pathParameters(route.path).map((name) => {
      const kind = pathIdKind(name);
      return { name, in: 'path', required: true, schema: components.json(kind ? IdOf(kind) : Type.String()) };
    });
    parameters.push(...queryParameters(route.query), ...headerParameters(route.headers));
    if (route.access === 'api') {
      const versioned = requiresVersionHeaders(route.path);
      parameters.push(
        { $ref: '#/components/parameters/Beta' },
        { $ref: `#/components/parameters/${versioned ? 'Version' : 'OptionalVersion'}` },
        betaParameter(route.path),
        { $ref: '#/components/parameters/Workspace' },
      );
      if (route.method === 'POST') parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
    }

    const responses: Record<string, Json> = {};
    const reply = route.reply.mediaType === 'application/json' ? splitNull(route.reply.schema) : { schema: route.reply.schema, nullable: false };
    responses['200'] = {
      description: 'Success.',
      ...(route.access === 'api' ? { headers: rateLimitHeaders } : {}),
      content: mediaContent({ ...route.reply, schema: reply.schema }),
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
        responses[status] = { description: 'See the schema.', content: mediaContent(other) };
      } else if (error) {
        responses[status] = errorResponse(error);
      }
    }

    return {
      operationId: operationId(route),
      tags: [tagOf(route)],
      ...(route.access === 'open' ? { security: [] } : {}),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(route.body ? { requestBody: { required: true, content: mediaContent(route.body) } } : {}),
      responses,
    };
  };

  const paths: Record<string, Record<string, Json>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    const methods = (paths[path] ??= {});
    const method = route.method.toLowerCase();
    if (methods[method]) throw new Error(`two routes for ${route.method} ${route.path}`);
    methods[method] = operation(route);
  }

  return {
    openapi: '3.1.1',
    info: {
      title: 'Agent deployments API',
      version: API_VERSION,
      description: [
        'Deployments bind an agent to an environment, vaults, initial events, resources, an optional cron schedule and budget; ' +
          'each fire creates a session and records a run.',
        'Every /v1 route takes credentials (`x-api-key`, or `Authorization: Bearer` when that is absent). ' +
          `Two API versions are served: \`${versionHeader}: 2023-06-01\` (the interface's; SDK 0.x) requires \`beta=true\` on every /v1 route, ` +
          `and \`2026-10-21\` (SDK 1.x) takes \`beta=true\` as optional; a request that names no version follows ${API_VERSION}. ` +
          `\`${versionHeader}\` and \`${betaHeader}: ${REQUIRED_BETA}\` are required on /v1/deployments and ` +
          '/v1/deployment_runs routes, and checked wherever they are sent; any other version is 400 naming both.',
        'Every error is `{"type":"error","error":{"type","message"},"request_id"}`; every response carries a `request-id` header with the same id.',
      ].join('\n\n'),
    },
    tags: [...new Set(routes.map(tagOf))].map((name) => ({ name })),
    security: [{ ApiKey: [] }, { BearerAuth: [] }],
    paths,
    components: {
      // Read after the paths: only the schemas they reach are written.
      schemas: components.schemas(),
      responses: Object.fromEntries(Object.entries(errorResponses).sort(([a], [b]) => a.localeCompare(b))),
      parameters,
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'A workspace API key (read first when both are sent).' },
        BearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            "The API key as a bearer token, read only when `x-api-key` is absent; also a polled work item's sessions token, " +
            'which is limited to its session and work item.',
        },
      },
    },
  };
}
