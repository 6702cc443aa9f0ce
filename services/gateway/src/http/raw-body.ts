import { ApiError, invalidRequest } from '../../../../shared/errors/api-error';
import type { TSchema, Static } from '@sinclair/typebox';
import { validate } from '../../../../shared/validation/validate';

/**
 * The body as received. Parsing JSON is deferred until after authentication and permission, so
 * a caller without a key learns nothing from how we parse (check order: 401 before 400).
 */
export class RawBody {
  constructor(
    readonly text: string,
    readonly contentType: string,
  ) {}
}

export async function readRawBody(request: Request, maxBytes: number): Promise<RawBody> {
  const declared = Number(request.headers.get('content-length') ?? 'NaN');
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const bytes = await request.arrayBuffer();
  if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
  return new RawBody(new TextDecoder().decode(bytes), request.headers.get('content-type') ?? '');
}

const tooLarge = (max: number) =>
  new ApiError('invalid_request_error', `request body is larger than the ${max}-byte limit`, { status: 413 });

/** JSON body, validated against the route's schema; every failure is a 400 naming the field. */
export function jsonBody<T extends TSchema>(schema: T, body: unknown): Static<T> {
  const raw = body instanceof RawBody ? body : undefined;
  if (!raw || raw.text.trim() === '') throw invalidRequest('body: a JSON body is required');
  if (!/^application\/json\s*(;|$)/i.test(raw.contentType)) {
    throw invalidRequest('content-type: must be application/json');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.text);
  } catch {
    throw invalidRequest('body: malformed JSON');
  }
  return validate(schema, parsed);
}

/** Action routes (pause, archive, ...) take no body; an empty object is tolerated. */
export function emptyBody(body: unknown): void {
  if (!(body instanceof RawBody) || body.text.trim() === '') return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.text);
  } catch {
    throw invalidRequest('body: malformed JSON');
  }
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed) && Object.keys(parsed).length === 0) return;
  throw invalidRequest('body: this operation takes no body');
}
