import type { Database } from '@shared/db/connect';
import { asOverloadedIfDatabaseUnavailable } from '@shared/db/database-unavailable';
import { randomBase62 } from '@shared/ids/ids';
import type { Logger } from '@shared/log/logger';
import type { Tenant } from '@shared/schema/tenant';
import type { Clock } from '@shared/time/clock';
import {
  deleteExpiredIdempotencyKeys,
  findIdempotencyKey,
  insertIdempotencyClaim,
  recordIdempotentAnswer,
  releaseIdempotencyKey,
  takeOverIdempotencyKey,
  type IdempotencyClaim,
  type IdempotencyKeyAddress,
  type IdempotencyKeyRow,
  type NewIdempotencyClaim,
} from '../db/idempotency-keys';
import {
  IDEMPOTENCY_KEY_RETENTION_MS,
  IDEMPOTENT_REPLAYED_HEADER,
  idempotencyKeyHash,
  idempotencyKeyInProgress,
  idempotencyKeyReused,
  keepsAnswer,
} from '../domain/idempotency-key';
import { requestState } from '../http/request-state';

/** What the guard hands a route for a POST sent with a key (routing/route.ts begins it). */
export interface PendingIdempotentRequest {
  /**
   * Called when the operation is about to run, after its input was validated: takes the key for
   * this request (undefined: run it), or answers from the key, with the kept answer (a replay) or
   * a 409 (another request, or this one still running).
   */
  begin(): Promise<Response | undefined>;
}

export interface IdempotentRequestsOptions {
  /**
   * How long a request holds its key before its process is taken for gone (a crash) and a retry
   * may run the request again: longer than the longest the operation can take.
   */
  claimLeaseMs: number;
  logger: Logger;
}

/** Expired rows deleted per statement, and statements per sweep; the rest wait for the next sweep. */
const SWEEP_BATCH = 500;
const SWEEP_BATCHES = 20;
const SWEEP_EVERY_MS = 60_000;
/** The most a MEDIUMTEXT holds; a larger answer (none is, in practice) is not kept. */
const MAX_KEPT_BODY_BYTES = 16 * 1024 * 1024 - 1;
/** Headers of an answer that are the request's own, not the answer's: never kept. */
const UNKEPT_HEADERS = new Set(['content-length', 'request-id']);

/**
 * Idempotency keys on POST (Stripe's semantics, domain/idempotency-key.ts), kept in the gateway's
 * own database. The first request with a key inserts a row holding it; when the operation has
 * answered, the answer is recorded in that row (or the row deleted, for an answer that is not
 * kept) before it is sent, so a retry that arrives after the answer always finds it. A retry of
 * the same request (method, path, body) gets the kept answer with `idempotent-replayed: true`;
 * another request with the key, 409; a retry while the first runs, 409 with `retry-after: 1`,
 * which the SDK retries until the answer is there. Rows live 24 h from the first request.
 */
export class IdempotentRequests {
  private readonly claims = new WeakMap<Request, IdempotencyClaim>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private sweeping: Promise<unknown> | undefined;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly options: IdempotentRequestsOptions,
  ) {}

  /** Deletes expired rows every minute, on every replica (bounded batches; concurrent sweeps are harmless). */
  start(): void {
    this.timer = setInterval(() => {
      this.sweeping ??= this.deleteExpired()
        .catch((err) => this.options.logger.warn('idempotency key sweep failed; the next one deletes what it left', { error: err }))
        .finally(() => (this.sweeping = undefined));
    }, SWEEP_EVERY_MS);
    this.timer.unref?.();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }

  /** For the guard, once the body is read: nothing is read or written before `begin`. */
  pending(request: Request, tenant: Tenant, key: string, requestHash: string): PendingIdempotentRequest {
    const address = { organizationId: tenant.organization_id, workspaceId: tenant.workspace_id, keyHash: idempotencyKeyHash(key) };
    return {
      // A database that went away is 503, which the client retries, never 500.
      begin: () => this.begin(request, address, requestHash).catch((err) => Promise.reject(asOverloadedIfDatabaseUnavailable(err))),
    };
  }

  /**
   * Wraps every answer: an answer to a request that holds a key is recorded (or the key released)
   * before it goes out. Recording can fail (the database went away); the answer still goes out,
   * and the key stays held until its lease lapses, when a retry runs the request again.
   */
  async settle(request: Request, response: Response): Promise<Response> {
    const claim = this.claims.get(request);
    if (!claim) return response;
    this.claims.delete(request);
    const kept = keepsAnswer(response.status) && /^application\/json\b/.test(response.headers.get('content-type') ?? '');
    const body = kept ? await response.text() : undefined;
    try {
      if (body !== undefined && Buffer.byteLength(body) <= MAX_KEPT_BODY_BYTES) {
        const headers = Object.fromEntries([...response.headers].filter(([name]) => !UNKEPT_HEADERS.has(name)));
        await recordIdempotentAnswer(this.db, claim, { status: response.status, headers, body });
      } else {
        await releaseIdempotencyKey(this.db, claim);
      }
    } catch (err) {
      this.options.logger.error('idempotency key not settled; it stays held until its lease lapses', {
        request_id: requestState(request).id,
        error: err,
      });
    }
    return body === undefined ? response : new Response(body, { status: response.status, headers: response.headers });
  }

  /** Deletes rows 24 h old or older, in batches, oldest first; returns how many. */
  async deleteExpired(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - IDEMPOTENCY_KEY_RETENTION_MS);
    let deleted = 0;
    for (let batch = 0; batch < SWEEP_BATCHES; batch++) {
      const count = await deleteExpiredIdempotencyKeys(this.db, before, SWEEP_BATCH);
      deleted += count;
      if (count < SWEEP_BATCH) break;
    }
    return deleted;
  }

  private async begin(request: Request, address: IdempotencyKeyAddress, requestHash: string): Promise<Response | undefined> {
    const now = this.clock.now();
    const claim: NewIdempotencyClaim = {
      ...address,
      claimId: randomBase62(24),
      requestHash,
      createdAt: now,
      lockedUntil: new Date(now.getTime() + this.options.claimLeaseMs),
    };
    // A few rounds: the row found may be released, swept or taken over between two statements.
    for (let round = 0; round < 3; round++) {
      if (await insertIdempotencyClaim(this.db, claim)) return this.hold(request, claim);
      const row = await findIdempotencyKey(this.db, address);
      if (!row) continue;
      // Past 24 h the key is free again, whatever it was used for.
      if (row.createdAt.getTime() + IDEMPOTENCY_KEY_RETENTION_MS <= now.getTime()) {
        if (await takeOverIdempotencyKey(this.db, claim, row.claimId)) return this.hold(request, claim);
        continue;
      }
      if (row.requestHash !== requestHash) throw idempotencyKeyReused();
      if (row.status === null) {
        if (row.lockedUntil.getTime() > now.getTime()) throw idempotencyKeyInProgress();
        // Its process is gone without an answer: the request may or may not have taken effect,
        // and running it again is the only way to one.
        if (await takeOverIdempotencyKey(this.db, claim, row.claimId)) return this.hold(request, claim);
        continue;
      }
      return replay(row, requestState(request).id);
    }
    throw idempotencyKeyInProgress();
  }

  private hold(request: Request, claim: IdempotencyClaim): undefined {
    this.claims.set(request, claim);
    return undefined;
  }
}

/**
 * The kept answer, marked as replayed. An error envelope's `request_id` is this request's, like
 * its `request-id` header (the envelope and the header always agree).
 */
function replay(row: IdempotencyKeyRow, requestId: string): Response {
  const headers = new Headers(JSON.parse(row.responseHeaders ?? '{}') as Record<string, string>);
  headers.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
  let body = row.responseBody ?? '';
  if (row.status! >= 400) {
    const envelope = JSON.parse(body) as { request_id?: string };
    body = JSON.stringify({ ...envelope, request_id: requestId });
  }
  return new Response(body, { status: row.status!, headers });
}
