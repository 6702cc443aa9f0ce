import { ApiError } from '@shared/errors/api-error';
import type { ErrorEnvelope } from '@shared/schema/common';

/** The only way an error leaves the gateway: the interface's envelope, request id included. */
export function errorResponse(error: ApiError, requestId: string): Response {
  const body: ErrorEnvelope = {
    type: 'error',
    error: { type: error.type, message: error.message, ...error.fields, ...(error.details ? { details: error.details } : {}) },
    request_id: requestId,
  };
  return new Response(JSON.stringify(body), {
    status: error.status,
    headers: { ...error.headers, 'content-type': 'application/json', 'request-id': requestId },
  });
}
