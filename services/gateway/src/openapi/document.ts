import { Type } from '@sinclair/typebox';
import { API_VERSION, REQUIRED_BETA } from '../domain/versioning';
import type { RouteContract } from '../routing/route-contract';
import { routeParameters, sharedParameters, versionHeaders, type VersionHeaders } from './parameters';
import { ErrorResponses, mediaContent, routeResponses } from './responses';
import { SchemaComponents, type Json, type JsonObject } from './schema-components';
import { schemaNames } from './schema-names';

/** What `/v1/openapi.json` answers: this document (its shape is OpenAPI's, checked by a validator in the tests). */
export const OpenApiDocument = Type.Object(
  { openapi: Type.String({ pattern: '^3\\.1\\.\\d+$' }), info: Type.Object({ title: Type.String(), version: Type.String() }), paths: Type.Object({}) },
  { description: 'An OpenAPI 3.1 document: this one.' },
);

/** A route's path in OpenAPI's syntax: `/v1/vaults/:vault_id` -> `/v1/vaults/{vault_id}`. */
const openApiPath = (path: string) => path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');

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
  const headers = versionHeaders(options.headerPrefix);
  const parameters = sharedParameters(components, headers);
  const errorResponses = new ErrorResponses(components);

  const operation = (route: RouteContract): Json => {
    const parameters = routeParameters(components, headers, route);
    const responses = routeResponses(components, errorResponses, route);
    return {
      operationId: operationId(route),
      tags: [tagOf(route)],
      ...(route.access === 'open' ? { security: [] } : {}),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(route.body ? { requestBody: { required: true, content: mediaContent(components, route.body) } } : {}),
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
    info: { title: 'Agent deployments API', version: API_VERSION, description: apiDescription(headers) },
    tags: [...new Set(routes.map(tagOf))].map((name) => ({ name })),
    security: [{ ApiKey: [] }, { BearerAuth: [] }],
    paths,
    components: {
      // Read after the paths: only the schemas they reach are written.
      schemas: components.schemas(),
      responses: errorResponses.all(),
      parameters,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

/** What the document says first: what the API is and the rules every route keeps. */
function apiDescription(headers: VersionHeaders): string {
  return [
    'Deployments bind an agent to an environment, vaults, initial events, resources, an optional cron schedule and budget; ' +
      'each fire creates a session and records a run.',
    'Every /v1 route takes credentials (`x-api-key`, or `Authorization: Bearer` when that is absent). ' +
      `Two API versions are served: \`${headers.version}: 2023-06-01\` (the interface's; SDK 0.x) requires \`beta=true\` on every /v1 route, ` +
      `and \`2026-10-21\` (SDK 1.x) takes \`beta=true\` as optional; a request that names no version follows ${API_VERSION}. ` +
      `\`${headers.version}\` and \`${headers.beta}: ${REQUIRED_BETA}\` are required on /v1/deployments and ` +
      '/v1/deployment_runs routes, and checked wherever they are sent; any other version is 400 naming both.',
    'Every error is `{"type":"error","error":{"type","message"},"request_id"}`; every response carries a `request-id` header with the same id.',
  ].join('\n\n');
}

const SECURITY_SCHEMES = {
  ApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'A workspace API key (read first when both are sent).' },
  BearerAuth: {
    type: 'http',
    scheme: 'bearer',
    description:
      "The API key as a bearer token, read only when `x-api-key` is absent; also a polled work item's sessions token, " +
      'which is limited to its session and work item.',
  },
};
