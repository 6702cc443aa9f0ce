import { createHash } from 'node:crypto';
import { ApiError, invalidRequest } from '@shared/errors/api-error';

/**
 * `Idempotency-Key` on a POST, with Stripe's semantics: the first request's answer is kept 24 h
 * per tenant and key, and a retry of the same request gets it again instead of running twice.
 * The pure rules: the header's form, what "the same request" is, which answers are kept.
 */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';
export const IDEMPOTENCY_KEY_RETENTION_MS = 24 * 60 * 60 * 1000;

const KEY_FORM = /^[\x20-\x7e]{1,255}$/;

/**
 * The key a POST was sent with; undefined without one, and on any other method: GET and DELETE
 * are idempotent by nature, and the header is ignored there, as Stripe does.
 */
export function readIdempotencyKey(method: string, headers: Headers): string | undefined {
  if (method !== 'POST') return undefined;
  const key = headers.get(IDEMPOTENCY_KEY_HEADER);
  if (key === null) return undefined;
  if (!KEY_FORM.test(key)) throw invalidRequest('Idempotency-Key: must be 1 to 255 printable ASCII characters');
  return key;
}

const sha256 = () => createHash('sha256');

/** What a key is stored under: fixed width, and exact whatever the collation. */
export const idempotencyKeyHash = (key: string): string => sha256().update(key, 'latin1').digest('hex');

/**
 * What "the same request" means for a retry: the same method, path with query, and body bytes.
 * Headers are left out: a retry's own (the SDK's retry count, a new trace id) differ.
 */
export function requestFingerprint(method: string, target: string, body: Uint8Array | undefined): string {
  const hash = sha256().update(`${method} ${target}\n`, 'utf8');
  if (body) hash.update(body);
  return hash.digest('hex');
}

/**
 * Whether an answer is kept for retries. Not the ones a client retries to get another answer:
 * 408, 409 (a conflict that may clear), 429 and every 5xx, which the official SDK retries; kept,
 * its retries would get the failure again. Everything else the operation answered is its result
 * and is kept, failures included (a 404 for a missing reference): a new attempt takes a new key.
 * Requests refused before the operation began (authentication, limits, validation) never hold
 * the key, so they are not kept either.
 */
export const keepsAnswer = (status: number): boolean => status < 500 && status !== 408 && status !== 409 && status !== 429;

export const idempotencyKeyReused = () =>
  new ApiError(
    'invalid_request_error',
    'Idempotency-Key: this key was already used with a different request (method, path or body); use a new key for a new request',
    // Retrying the same request can never succeed: tell the SDK not to.
    { status: 409, headers: { 'x-should-retry': 'false' } },
  );

export const idempotencyKeyInProgress = () =>
  new ApiError(
    'invalid_request_error',
    'Idempotency-Key: a request with this key is still in progress; retry after it completes',
    { status: 409, headers: { 'retry-after': '1' } },
  );
