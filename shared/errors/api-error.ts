import type { ErrorDetails } from '../schema/common';

/**
 * The one error type that crosses every boundary. Handlers throw it, the bus carries its
 * `type`/`status`/`message`, and the gateway's single error handler turns it into the envelope.
 */
export const API_ERROR_TYPES = [
  'invalid_request_error',
  'authentication_error',
  'billing_error',
  'permission_error',
  'not_found_error',
  'rate_limit_error',
  'timeout_error',
  'api_error',
  'overloaded_error',
  // A memory's own 409s (SDK BetaManagedAgentsMemoryPreconditionFailedError, ...PathConflictError).
  'memory_precondition_failed_error',
  'memory_path_conflict_error',
] as const;
export type ApiErrorType = (typeof API_ERROR_TYPES)[number];

export const DEFAULT_STATUS: Record<ApiErrorType, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  rate_limit_error: 429,
  timeout_error: 504,
  api_error: 500,
  overloaded_error: 503,
  memory_precondition_failed_error: 409,
  memory_path_conflict_error: 409,
};

export const DEFAULT_MESSAGE: Record<ApiErrorType, string> = {
  invalid_request_error: 'Invalid request',
  authentication_error: 'Authentication error',
  billing_error: 'Billing error',
  permission_error: 'Permission denied',
  not_found_error: 'Not found',
  rate_limit_error: 'Rate limited',
  timeout_error: 'Request timeout',
  api_error: 'Internal server error',
  overloaded_error: 'Overloaded',
  memory_precondition_failed_error: 'The precondition does not hold for the memory',
  memory_path_conflict_error: 'The path conflicts with another memory',
};

export class ApiError extends Error {
  readonly type: ApiErrorType;
  readonly status: number;
  /**
   * HTTP headers the gateway's answer carries with this error (`retry-after` on a rate limit).
   * Only the gateway sets them: the bus carries an error's type, status and message, no headers.
   */
  readonly headers: Readonly<Record<string, string>> | undefined;
  /** `error.details` of the envelope (an `error_code` the SDK maps to a class); the bus carries it. */
  readonly details: ErrorDetails | undefined;
  /**
   * Fields of the envelope's `error` object itself, beside `type` and `message`, where the SDK
   * declares some for the type (a memory path conflict's `conflicting_memory_id` and
   * `conflicting_path`); the bus carries them like `details`.
   */
  readonly fields: Readonly<Record<string, string>> | undefined;

  constructor(
    type: ApiErrorType,
    message?: string,
    options?: { status?: number; cause?: unknown; headers?: Record<string, string>; details?: ErrorDetails; fields?: Record<string, string> },
  ) {
    super(message ?? DEFAULT_MESSAGE[type], { cause: options?.cause });
    this.name = 'ApiError';
    this.type = type;
    this.status = options?.status ?? DEFAULT_STATUS[type];
    this.headers = options?.headers;
    this.details = options?.details;
    this.fields = options?.fields;
  }
}

export const invalidRequest = (message: string, status = 400) =>
  new ApiError('invalid_request_error', message, { status });
export const notFound = (message = 'Not found') => new ApiError('not_found_error', message);

/**
 * The one wording of a missing resource's 404, in every service: `<kind> '<id>' not found` (`agent
 * 'agent_x' version 2 not found`), the way deployments name a missing reference too, so a resource
 * is named alike whether it is asked for or referred to.
 */
export const resourceNotFound = (kind: string, id: string, at: { version?: number; field?: string } = {}) =>
  notFound(`${at.field === undefined ? '' : `${at.field}: `}${kind} '${id}'${at.version === undefined ? '' : ` version ${at.version}`} not found`);

/** The same error with an `error_code` in its details, where the SDK declares one for the cause. */
export const withErrorCode = (error: ApiError, errorCode: string, more: Record<string, unknown> = {}) =>
  new ApiError(error.type, error.message, { status: error.status, headers: error.headers, details: { error_code: errorCode, ...more } });

/**
 * What was looked up, or the error `missing` makes when nothing was found: the one spelling of
 * "load it or answer 404" (`found(await findVault(...), () => vaultNotFound(id))`).
 */
export function found<T>(value: T | null | undefined, missing: () => ApiError): T {
  if (value === null || value === undefined) throw missing();
  return value;
}
export const conflict = (message: string) => new ApiError('invalid_request_error', message, { status: 409 });
export const authenticationFailed = (message = 'Authentication error') =>
  new ApiError('authentication_error', message);
export const permissionDenied = (message = 'Permission denied') => new ApiError('permission_error', message);

export function isApiErrorType(value: unknown): value is ApiErrorType {
  return typeof value === 'string' && (API_ERROR_TYPES as readonly string[]).includes(value);
}
