import { ApiError } from '@shared/errors/api-error';
import type { Logger } from '@shared/log/logger';
import type { Tenant } from '@shared/schema/tenant';
import type { Clock } from '@shared/time/clock';
import {
  chargedSince,
  fullLevel,
  levelAt,
  msUntilNextRequest,
  perMinute,
  rateLimitHeaders,
  readingOf,
  retryAfterSeconds,
  type BucketLevel,
  type BucketRule,
} from '../domain/token-bucket';
import type { SharedBuckets } from './shared-buckets';

export interface RateLimitSettings {
  /** Requests one API key may make per minute, over all replicas; 0: no limit. */
  keyRequestsPerMinute: number;
  /** Requests one workspace (all its keys) may make per minute; 0: no limit. */
  workspaceRequestsPerMinute: number;
  /** Key lookups that found no key, per client address per minute; 0: no limit. */
  failedLookupsPerMinute: number;
  /** How often a replica charges the shared buckets with what it admitted, and learns what the others did. */
  syncMs: number;
}

/** A bucket not used here for this long is forgotten; its next use reads the shared level again. */
const IDLE_MS = 60_000;
/** How often the forgetting runs (it walks every bucket). */
const FORGET_EVERY_MS = 10_000;
/** Buckets one replica remembers at most; past it the longest-known idle ones go first. */
const MAX_LOCAL_BUCKETS = 100_000;

/** What this replica knows of one shared bucket. */
interface LocalBucket {
  readonly name: string;
  readonly rule: BucketRule;
  /** The shared level as this replica last read or wrote it. */
  seen: BucketLevel;
  /** Requests admitted here since (negative: refunds), not yet charged to the shared level. */
  pending: number;
  /** When the first of them was admitted. */
  pendingSince: number;
  lastUsed: number;
  /** The charge in flight; the next waits for it, so a bucket's charges never overlap. */
  syncing?: Promise<void>;
}

interface Take {
  admitted: boolean;
  /** Tokens left after this take (before it, when refused). */
  available: number;
  bucket: LocalBucket;
}

/**
 * Rate limits per API key, per workspace and (for key lookups that find nothing) per client
 * address: token buckets every gateway replica shares through a JetStream key-value bucket
 * (shared-buckets.ts), decided locally.
 *
 * A request never waits for the bus once its bucket is known here: each replica decides on the
 * shared level it last saw, refilled by its own clock, less what it admitted since, and every
 * `syncMs` charges the shared level with that (compare-and-set) and reads back the level the other
 * replicas left. A bucket's first use on a replica, or its first after a minute unused, reads the
 * shared level before deciding. So a refusal is never wrong (a replica's view is never below the
 * shared level: the others only take), while admissions can overshoot: in the interval before
 * it hears of the others, each replica may admit what it last saw. The overshoot over the whole
 * fleet is at most what the other replicas admit for that bucket in one interval, and it becomes
 * debt that the refill pays back before anything more is admitted, so over time the rate stays
 * the limit (docs/decisions.md, "Rate limits and idempotency keys").
 *
 * When the shared bucket does not answer, a replica keeps what it admitted in its own view and
 * limits alone (as if it were the only replica) until it answers again.
 */
export class RateLimits {
  private readonly buckets = new Map<string, LocalBucket>();
  private readonly loading = new Map<string, Promise<LocalBucket>>();
  private readonly dirty = new Set<LocalBucket>();
  private readonly rules: { key?: BucketRule; workspace?: BucketRule; failedLookups?: BucketRule };
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private storeDown = false;
  private lastForgetting = 0;

  constructor(
    private readonly shared: SharedBuckets,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly settings: RateLimitSettings,
  ) {
    const rule = (requests: number) => (requests > 0 ? perMinute(requests) : undefined);
    this.rules = {
      key: rule(settings.keyRequestsPerMinute),
      workspace: rule(settings.workspaceRequestsPerMinute),
      failedLookups: rule(settings.failedLookupsPerMinute),
    };
  }

  start(): void {
    this.schedule();
  }

  /** Stops the timer and charges what was admitted since the last sync, so no consumption is lost. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.sync();
  }

  /**
   * Takes one request from the caller's API key bucket and its workspace's. Refused: 429
   * `rate_limit_error` with `retry-after` and the refusing bucket's headers (nothing taken from the
   * other). Admitted: the `anthropic-ratelimit-requests-*` headers of the bucket with the fewest
   * requests left, which every answer to this request carries; none when both limits are off.
   */
  async admitCaller(tenant: Tenant): Promise<Record<string, string> | undefined> {
    const takes: Take[] = [];
    if (this.rules.key) {
      const take = await this.take(`key.${token(tenant.key_id)}`, this.rules.key);
      if (!take.admitted) {
        throw this.refusal(take, `rate limit of ${this.rules.key.capacity} requests per minute exceeded for this API key`);
      }
      takes.push(take);
    }
    if (this.rules.workspace) {
      const take = await this.take(`workspace.${token(`${tenant.organization_id}/${tenant.workspace_id}`)}`, this.rules.workspace);
      if (!take.admitted) {
        for (const admitted of takes) this.refund(admitted);
        throw this.refusal(take, `rate limit of ${this.rules.workspace.capacity} requests per minute exceeded for this workspace`);
      }
      takes.push(take);
    }
    if (takes.length === 0) return undefined;
    const binding = takes.reduce((a, b) => (b.available < a.available ? b : a));
    return rateLimitHeaders(readingOf(binding.bucket.rule, binding.available, this.now()));
  }

  /**
   * Before a key lookup that reaches the database: charges the client's address one failed
   * lookup, or refuses with 429 when it has none left. The returned refund is for a lookup that
   * found its key (or failed for the database's sake): only lookups that find nothing are counted.
   */
  async chargeFailedLookup(address: string): Promise<() => void> {
    const rule = this.rules.failedLookups;
    if (!rule) return () => undefined;
    const take = await this.take(`address.${token(address)}`, rule);
    if (!take.admitted) {
      throw this.refusal(take, `too many requests with unknown or revoked API keys from this address (at most ${rule.capacity} a minute)`);
    }
    let refunded = false;
    return () => {
      if (!refunded) this.refund(take);
      refunded = true;
    };
  }

  /**
   * Charges every bucket with what this replica admitted and reads back what the others did: what
   * the timer does every `syncMs` for the buckets used since, here for all of them (at shutdown;
   * tests, which decide when replicas hear of each other).
   */
  async sync(): Promise<void> {
    this.dirty.clear();
    await Promise.all([...this.buckets.values()].map((bucket) => this.syncBucket(bucket)));
  }

  private async take(name: string, rule: BucketRule): Promise<Take> {
    const bucket = this.buckets.get(name) ?? (await this.load(name, rule));
    const now = this.now();
    bucket.lastUsed = now;
    const available = availableIn(bucket, now);
    if (available < 1) return { admitted: false, available, bucket };
    if (bucket.pending === 0) bucket.pendingSince = now;
    bucket.pending++;
    this.dirty.add(bucket);
    return { admitted: true, available: available - 1, bucket };
  }

  private refund(take: Take): void {
    take.bucket.pending--;
    this.dirty.add(take.bucket);
  }

  private refusal(take: Take, reason: string): ApiError {
    const { rule } = take.bucket;
    const seconds = retryAfterSeconds(msUntilNextRequest(rule, take.available));
    return new ApiError('rate_limit_error', `${reason}; retry after ${seconds} s`, {
      headers: { ...rateLimitHeaders(readingOf(rule, take.available, this.now())), 'retry-after': String(seconds) },
    });
  }

  /** A bucket's first use here: its shared level, read once however many requests ask at the same time. */
  private load(name: string, rule: BucketRule): Promise<LocalBucket> {
    let loading = this.loading.get(name);
    if (!loading) {
      loading = (async () => {
        const now = this.now();
        let seen: BucketLevel;
        try {
          seen = await this.shared.read(name, rule, now);
          this.storeAnswered();
        } catch (err) {
          seen = fullLevel(rule, now);
          this.storeFailed(err);
        }
        const bucket: LocalBucket = { name, rule, seen, pending: 0, pendingSince: now, lastUsed: now };
        this.buckets.set(name, bucket);
        return bucket;
      })().finally(() => this.loading.delete(name));
      this.loading.set(name, loading);
    }
    return loading;
  }

  /** Never rejects: a store that does not answer leaves the bucket limited by this replica alone. */
  private syncBucket(bucket: LocalBucket): Promise<void> {
    const charge = async () => {
      const spent = bucket.pending;
      const since = bucket.pendingSince;
      const now = this.now();
      try {
        bucket.seen = await this.shared.charge(bucket.name, bucket.rule, spent, since, now);
        this.storeAnswered();
      } catch (err) {
        // Kept in this replica's view only: charged later, a long outage's consumption would come
        // back as debt all at once.
        bucket.seen = chargedSince(bucket.rule, bucket.seen, spent, since, now);
        this.storeFailed(err);
      }
      bucket.pending -= spent;
      // What was admitted while the charge was out came after it was computed.
      bucket.pendingSince = now;
    };
    const next = (bucket.syncing ?? Promise.resolve()).then(charge);
    bucket.syncing = next;
    void next.then(() => {
      if (bucket.syncing === next) bucket.syncing = undefined;
    });
    return next;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.tick(), this.settings.syncMs);
    this.timer.unref?.();
  }

  private async tick(): Promise<void> {
    const due = [...this.dirty];
    this.dirty.clear();
    await Promise.all(due.map((bucket) => this.syncBucket(bucket)));
    this.forgetIdle();
    this.schedule();
  }

  private forgetIdle(): void {
    const now = this.now();
    if (now - this.lastForgetting < FORGET_EVERY_MS && this.buckets.size <= MAX_LOCAL_BUCKETS) return;
    this.lastForgetting = now;
    const settled = (bucket: LocalBucket) => bucket.pending === 0 && !bucket.syncing && !this.dirty.has(bucket);
    for (const [name, bucket] of this.buckets) {
      if (settled(bucket) && now - bucket.lastUsed > IDLE_MS) this.buckets.delete(name);
    }
    for (const [name, bucket] of this.buckets) {
      if (this.buckets.size <= MAX_LOCAL_BUCKETS) break;
      if (settled(bucket)) this.buckets.delete(name);
    }
  }

  private storeAnswered(): void {
    if (!this.storeDown) return;
    this.storeDown = false;
    this.logger.info('rate limit buckets answer again: replicas share their limits');
  }

  private storeFailed(err: unknown): void {
    if (this.storeDown) return;
    this.storeDown = true;
    this.logger.warn('rate limit buckets do not answer: each replica limits alone until they do', { error: err });
  }

  private now(): number {
    return this.clock.now().getTime();
  }
}

/** Tokens left here: the shared level last seen, less what this replica admitted since, refilled to `now`. */
const availableIn = (bucket: LocalBucket, now: number): number =>
  bucket.pending === 0
    ? levelAt(bucket.rule, bucket.seen, now).tokens
    : chargedSince(bucket.rule, bucket.seen, bucket.pending, bucket.pendingSince, now).tokens;

/** A KV key token from any text (`.` separates tokens; ids and addresses may hold `:` or `/`). */
const token = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
