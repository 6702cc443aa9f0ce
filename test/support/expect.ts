/**
 * The two answers every HTTP test checks: success (200, the body) and the error envelope.
 * One definition, so every suite holds the gateway to the same envelope.
 */
import { expect } from 'bun:test';
import { isMetadataField } from '@shared/metadata/apply-metadata-patch';
import type { ApiResponse } from './api';

/** A 200 answer's body; anything else fails the test, naming `what` and showing the answer. */
export function expectOk<T = any>(response: ApiResponse<T>, what = 'the request'): T {
  if (response.status !== 200) throw new Error(`${what}: expected 200, got ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/**
 * The error envelope, exactly: its status, its error type, the request id echoing the
 * `request-id` header, and a message containing each of `messageParts`. An envelope with
 * `details` (an SDK error code) is checked with `expectCodedError`.
 */
export function expectError(response: ApiResponse, status: number, type: string, ...messageParts: string[]): void {
  expectEnvelope(response, status, { type, message: expect.any(String) }, messageParts);
}

/**
 * A 400 invalid_request_error whose message starts with `messageStart`: validation names the
 * refused field first (`metadata.team: ...`), so the start says which field was refused.
 */
export function expectInvalidRequest(response: ApiResponse, messageStart: string): void {
  // A metadata field's 400 carries the SDK's invalid_metadata code, as the product's one rule says.
  const field = messageStart.split(':')[0]!;
  if (isMetadataField(field)) expectCodedError(response, 400, 'invalid_request_error', 'invalid_metadata');
  else expectError(response, 400, 'invalid_request_error');
  expect(response.body.error.message).toStartWith(messageStart);
}

/** The error envelope carrying `details.error_code` (and nothing else in its details). */
export function expectCodedError(response: ApiResponse, status: number, type: string, errorCode: string, ...messageParts: string[]): void {
  expectEnvelope(response, status, { type, message: expect.any(String), details: { error_code: errorCode } }, messageParts);
}

function expectEnvelope(response: ApiResponse, status: number, error: Record<string, unknown>, messageParts: string[]): void {
  // Status and body in one comparison, so a failure shows the whole answer.
  expect({ status: response.status, body: response.body }).toEqual({
    status,
    body: { type: 'error', error, request_id: response.headers.get('request-id') },
  });
  for (const part of messageParts) expect(response.body.error.message).toContain(part);
}

/**
 * What an SDK call that must fail threw. The SDK's APIPromise parses lazily in `then`, so it is
 * awaited here and the error returned for the test to inspect; a call that succeeds fails the test.
 */
export async function sdkFailure(request: PromiseLike<unknown>): Promise<any> {
  try {
    await request;
  } catch (err) {
    return err;
  }
  throw new Error('expected the request to fail');
}

/**
 * The message of what `fn` threw (or of what `promise` rejected with), or 'no error', so a test
 * compares refusals as text and a call that passes fails the comparison with a readable diff.
 */
export function messageOf(promise: Promise<unknown>): Promise<string>;
export function messageOf(fn: () => unknown): string;
export function messageOf(what: Promise<unknown> | (() => unknown)): string | Promise<string> {
  if (what instanceof Promise) return what.then(() => 'no error', (err: Error) => err.message);
  try {
    what();
  } catch (err) {
    return (err as Error).message;
  }
  return 'no error';
}

/** The status, type and message of the typed error `fn` threw, or undefined when it threw none. */
export function failureOf(fn: () => unknown): { status: number; type: string; message: string } | undefined {
  try {
    fn();
  } catch (err) {
    const e = err as { status: number; type: string; message: string };
    return { status: e.status, type: e.type, message: e.message };
  }
  return undefined;
}
