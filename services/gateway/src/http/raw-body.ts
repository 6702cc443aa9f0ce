import { ApiError, invalidRequest } from '@shared/errors/api-error';
import type { TSchema, Static } from '@sinclair/typebox';
import { validate } from '@shared/validation/validate';

/**
 * The body as received. It is read only after authentication, permission and versioning (see
 * routing/guard.ts), and parsed later still by the route (routing/route.ts), so a caller without a key costs us no
 * body and learns nothing from how we parse (check order: 401 before 400).
 */
export class RawBody {
  private decoded?: string;
  constructor(
    readonly bytes: Uint8Array,
    readonly contentType: string,
  ) {}

  get text(): string {
    this.decoded ??= new TextDecoder().decode(this.bytes);
    return this.decoded;
  }
}

export interface BodyLimits {
  maxBytes: number;
  /** Longest wait for the next piece of the body before the answer is 408. */
  idleTimeoutMs: number;
  /** Longest time the whole body may take, however steadily it arrives, before the answer is 408. */
  deadlineMs: number;
  /**
   * Called when reading starts and after every piece: the runtime's own idle timer is not pushed
   * back by body bytes and would drop a slow but steady upload without an answer, so the caller
   * pushes it back here and the two limits above are the only ones that end a read.
   */
  onProgress?: () => void;
}

/** Why a body could not be read; the HTTP layer decides what the connection does afterwards. */
export const bodyTooLarge = (max: number) =>
  new ApiError('invalid_request_error', `request body is larger than the ${max}-byte limit`, { status: 413 });
export const bodyTimedOut = (ms: number) =>
  new ApiError('timeout_error', `request body: no data arrived for ${ms} ms; send the whole body promptly`, { status: 408 });
export const bodyTooSlow = (ms: number) =>
  new ApiError('timeout_error', `request body: not received in full within ${ms} ms; send the whole body promptly`, { status: 408 });
export const bodyIncomplete = () => invalidRequest('body: the connection closed before the whole body arrived');

/**
 * Reads the body from the connection, counting bytes as they arrive, whatever the transfer
 * encoding (a chunked body has no Content-Length to check up front): past `maxBytes` it stops
 * reading and answers 413, so an oversized body never sits in memory; when the client stops
 * sending for `idleTimeoutMs`, or the whole body has not arrived within `deadlineMs` (a body
 * trickled a byte at a time is never idle), it answers 408 instead of waiting for the runtime to
 * drop the connection without a word.
 */
export async function readRawBody(request: Request, limits: BodyLimits): Promise<RawBody> {
  const contentType = request.headers.get('content-type') ?? '';
  const declared = Number(request.headers.get('content-length') ?? 'NaN');
  if (declared > limits.maxBytes) throw bodyTooLarge(limits.maxBytes);
  if (!request.body) return new RawBody(new Uint8Array(0), contentType);

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const timeout = readTimeout(limits);
  try {
    for (;;) {
      limits.onProgress?.();
      const { done, value } = await Promise.race([reader.read() as Promise<Chunk>, timeout.expired]);
      timeout.progressed();
      if (done) break;
      total += value.byteLength;
      if (total > limits.maxBytes) throw bodyTooLarge(limits.maxBytes);
      chunks.push(value);
    }
  } catch (err) {
    // Stop pulling from the socket; the runtime discards what the client still sends, so it
    // can read our answer (see http-server.ts for the bound).
    reader.cancel().catch(() => undefined);
    if (err instanceof ApiError) throw err;
    throw bodyIncomplete();
  } finally {
    timeout.clear();
  }
  const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total);
  return new RawBody(bytes, contentType);
}

type Chunk = { done: true; value?: undefined } | { done: false; value: Uint8Array };

/**
 * The two limits of one read as a single timer: `expired` rejects with a 408 once no piece has
 * arrived for `idleTimeoutMs`, or the whole body has not within `deadlineMs`. The timer is armed
 * for the nearer limit and, when it fires early because pieces arrived meanwhile, re-armed for
 * what is left; a timer (and its error) per piece cost more than reading the piece.
 */
function readTimeout(limits: BodyLimits) {
  const started = performance.now();
  let lastPiece = started;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    const check = () => {
      const now = performance.now();
      const deadline = started + limits.deadlineMs;
      const idleUntil = lastPiece + limits.idleTimeoutMs;
      if (now >= deadline && deadline <= idleUntil) return reject(bodyTooSlow(limits.deadlineMs));
      if (now >= idleUntil) return reject(bodyTimedOut(limits.idleTimeoutMs));
      if (now >= deadline) return reject(bodyTooSlow(limits.deadlineMs));
      timer = setTimeout(check, Math.min(deadline, idleUntil) - now);
    };
    timer = setTimeout(check, Math.min(limits.deadlineMs, limits.idleTimeoutMs));
  });
  // Only raced while a read waits; a rejection after the last piece has nobody to tell.
  expired.catch(() => undefined);
  return {
    expired,
    progressed: () => void (lastPiece = performance.now()),
    clear: () => clearTimeout(timer),
  };
}

/** JSON body, validated against the route's schema; every failure is a 400 naming the field. */
export function jsonBody<T extends TSchema>(schema: T, raw: RawBody | undefined): Static<T> {
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
export function emptyBody(body: RawBody | undefined): undefined {
  if (!body || body.text.trim() === '') return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.text);
  } catch {
    throw invalidRequest('body: malformed JSON');
  }
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed) && Object.keys(parsed).length === 0) return;
  throw invalidRequest('body: this operation takes no body');
}
