import { Type } from '@sinclair/typebox';
import type { ApiErrorType } from '@shared/errors/api-error';
import { ErrorEnvelope } from '@shared/schema/common';
import type { ErrorStatus, RouteContract } from '../routing/route-contract';

/** The error answers the document lists: which statuses a route can give, and the envelope of each. */

/**
 * The error type each status carries (PRODUCT.md section 1). Keyed by every status a route can
 * declare, so a new one cannot be documented without its type.
 */
export const ERROR_TYPE_OF_STATUS: Record<ErrorStatus, ApiErrorType> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  408: 'timeout_error',
  409: 'invalid_request_error',
  412: 'invalid_request_error',
  413: 'invalid_request_error',
  429: 'rate_limit_error',
  431: 'invalid_request_error',
  500: 'api_error',
  503: 'overloaded_error',
  504: 'timeout_error',
};

export const STATUS_MEANING: Record<ErrorStatus, string> = {
  400:
    'Invalid request: a missing or wrong versioning header or `beta` query, an unknown query parameter, ' +
    'or a body or query that breaks a rule; the message names the field.',
  401: 'No valid credentials.',
  403:
    "The key may not do this: a read-only key on a mutating route, a workspace header that is not the key's, " +
    'or a sessions token outside its session and work item.',
  404: 'No such resource in the caller\'s tenant (a path id of the wrong form included), or a referenced one is missing.',
  408: 'The request body did not arrive in time.',
  409: 'A conflict with the resource\'s current state (a concurrent change, or a state the operation does not apply to).',
  412: 'A precondition the request states does not hold.',
  413: 'The request body (or uploaded file) is larger than allowed.',
  429: 'Too many requests of this workspace at once; retry shortly.',
  431: 'The request headers are too large or too many.',
  500: 'Internal server error.',
  503: 'A backing service is unavailable or shedding load, or the gateway is shutting down; retry shortly.',
  504: 'A backing service did not answer in time.',
};

/**
 * The refusals every route can answer, by what it is: the HTTP server's (header limits, shutdown,
 * an unexpected failure) for all; the guard's (key, permission, versioning, stray query), a
 * backing service's (bulkhead, unavailable, timeout) for API routes; a body's limits where one is
 * read; a lookup's 404 where the path names a resource or the body refers to some.
 */
export function errorStatuses(route: RouteContract): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>([431, 500, 503, ...route.errors]);
  if (route.access === 'api') {
    for (const status of [400, 401, 403, 429, 504] as const) statuses.add(status);
    if (route.method !== 'GET') statuses.add(408).add(413);
    // An Idempotency-Key reused for another request, or whose first request still runs.
    if (route.method === 'POST') statuses.add(409);
    if (route.path.includes('/:') || route.body?.mediaType === 'application/json') statuses.add(404);
  }
  return [...statuses].sort((a, b) => a - b);
}

/** `invalid_request_error` -> `InvalidRequestError`: the name of the envelope of one error type. */
export const envelopeName = (type: ApiErrorType) => type.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());

/** The interface's envelope with `error.type` fixed to one type. */
export const envelopeOf = (type: ApiErrorType) =>
  Type.Object(
    {
      ...ErrorEnvelope.properties,
      error: Type.Object({ ...ErrorEnvelope.properties.error.properties, type: Type.Literal(type) }, { additionalProperties: false }),
    },
    { additionalProperties: false },
  );
