import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import { IdOf } from '@shared/schema/common';
import { WORKSPACE_HEADER } from '../domain/permission';
import { acceptedBetas, API_VERSION, requiresVersionHeaders, SUPPORTED_VERSIONS } from '../domain/versioning';
import type { RouteContract } from '../routing/route-contract';
import { pathIdKind } from '../routing/path-id';
import type { Json, SchemaComponents } from './schema-components';

/** The parameters the document lists: each route's own (path, query, headers) and those every API route shares. */

/** The names of the versioning headers, from API_HEADER_PREFIX. */
export interface VersionHeaders {
  version: string;
  beta: string;
}

export const versionHeaders = (headerPrefix: string): VersionHeaders => ({ version: `${headerPrefix}-version`, beta: `${headerPrefix}-beta` });

const headerParameter = (components: SchemaComponents, name: string, required: boolean, schema: TSchema, description: string) => ({
  name,
  in: 'header',
  required,
  schema: components.json(schema),
  description,
});

/** The parameters every API route refers to (`#/components/parameters/<name>`). */
export function sharedParameters(components: SchemaComponents, headers: VersionHeaders) {
  const versionSchema = Type.Union(SUPPORTED_VERSIONS.map((v) => Type.Literal(v)));
  const versionList = SUPPORTED_VERSIONS.map((v) => `\`${v}\``).join(', ');
  return {
    Beta: {
      name: 'beta',
      in: 'query',
      // Required under 2023-06-01 only; OpenAPI cannot make a parameter depend on a header.
      required: false,
      schema: { type: 'string', const: 'true' },
      description:
        `At most once, with the value \`true\`. Required under \`${headers.version}: 2023-06-01\` (and when no version is sent); ` +
        `optional under \`2026-10-21\`, what SDK 1.x sends.`,
    },
    Version: headerParameter(components, headers.version, true, versionSchema, `The API version (${versionList}). Also accepted as \`vendor-version\`.`),
    OptionalVersion: headerParameter(
      components,
      headers.version,
      false,
      versionSchema,
      `The API version (${versionList}): optional here, but checked when sent; without it the request follows ${API_VERSION}. ` +
        'Also accepted as `vendor-version`.',
    ),
    Workspace: headerParameter(components, WORKSPACE_HEADER, false, Type.String(), 'When sent, must be the workspace of the key (else 403).'),
    IdempotencyKey: headerParameter(
      components,
      'Idempotency-Key',
      false,
      Type.String({ minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' }),
      'Makes a retry of this POST safe: the first answer is kept 24 h and given again (with `idempotent-replayed: true`) ' +
        'to a retry of the same request; the same key with another request, or while the first still runs, is 409.',
    ),
  } satisfies Record<string, Json>;
}

/** The beta header as a path takes it: required where the version headers are, with the betas it accepts. */
function betaParameter(components: SchemaComponents, betaHeader: string, path: string): Json {
  const required = requiresVersionHeaders(path);
  const betas = acceptedBetas(path).map((beta) => `\`${beta}\``).join(' or ');
  return headerParameter(
    components,
    betaHeader,
    required,
    Type.String(),
    `Comma-separated betas, one of which must be ${betas}${required ? '' : ' (optional here, but checked when sent)'}. Also accepted as \`vendor-beta\`.`,
  );
}

const pathParameterNames = (path: string) => [...path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!);

function pathParameters(components: SchemaComponents, path: string): Json[] {
  return pathParameterNames(path).map((name) => {
    const kind = pathIdKind(name);
    return { name, in: 'path', required: true, schema: components.json(kind ? IdOf(kind) : Type.String()) };
  });
}

function queryParameters(components: SchemaComponents, query: TObject | undefined): Json[] {
  return Object.entries(query?.properties ?? {}).map(([name, schema]) => {
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
}

function headerParameters(components: SchemaComponents, headers: TObject | undefined): Json[] {
  return Object.entries(headers?.properties ?? {}).map(([name, schema]) =>
    headerParameter(components, name, headers!.required?.includes(name) ?? false, schema, schema.description ?? ''),
  );
}

/** A route's parameters: its path, query and headers, then (API routes) the shared ones and its beta header. */
export function routeParameters(components: SchemaComponents, headers: VersionHeaders, route: RouteContract): Json[] {
  const parameters: Json[] = pathParameters(components, route.path);
  parameters.push(...queryParameters(components, route.query), ...headerParameters(components, route.headers));
  if (route.access === 'api') {
    const versioned = requiresVersionHeaders(route.path);
    parameters.push(
      { $ref: '#/components/parameters/Beta' },
      { $ref: `#/components/parameters/${versioned ? 'Version' : 'OptionalVersion'}` },
      betaParameter(components, headers.beta, route.path),
      { $ref: '#/components/parameters/Workspace' },
    );
    if (route.method === 'POST') parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  }
  return parameters;
}
