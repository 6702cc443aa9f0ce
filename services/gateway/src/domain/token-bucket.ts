/**
 * The token bucket every rate limit is, as the `anthropic-ratelimit-requests-*` headers describe
 * it: a bucket holding `limit` requests, refilled continuously at `limit` per minute, one token per
 * request; `reset` is when it is full again. Pure arithmetic: a level is a number of tokens at an
 * instant (ms since the epoch), and time is always passed in.
 */
export interface BucketRule {
  /** Tokens the bucket holds when full: the per-minute limit, also the largest burst. */
  capacity: number;
  /** The time an empty bucket takes to fill (a minute). */
  windowMs: number;
}

export const perMinute = (requests: number): BucketRule => ({ capacity: requests, windowMs: 60_000 });

/**
 * Tokens added in `ms`: multiplied before dividing, so a whole interval gives whole tokens
 * (7,500 ms at 8 a minute is exactly 1, where 7,500 × (8 / 60,000) falls just short of it). The
 * elapsed time is capped at two windows (enough to fill from the debt floor) to stay exact.
 */
const refill = (rule: BucketRule, ms: number) => (Math.min(ms, 2 * rule.windowMs) * rule.capacity) / rule.windowMs;
/** Milliseconds `tokens` take to refill. */
const refillMs = (rule: BucketRule, tokens: number) => (tokens * rule.windowMs) / rule.capacity;

/**
 * What a bucket held at an instant. Below zero is debt: replicas that decided on views of the
 * shared bucket a moment old admitted more than it held (limits/rate-limits.ts), and the refill
 * pays that back before anything more is admitted, so the rate over time stays the limit.
 */
export interface BucketLevel {
  tokens: number;
  at: number;
}

export const fullLevel = (rule: BucketRule, now: number): BucketLevel => ({ tokens: rule.capacity, at: now });

/**
 * The level at `now`: refilled since `at`, never above capacity. An earlier `now` (a replica whose
 * clock is behind the one that wrote the level) adds nothing and takes nothing.
 */
export function levelAt(rule: BucketRule, level: BucketLevel, now: number): BucketLevel {
  if (now <= level.at) return level;
  return { tokens: Math.min(rule.capacity, level.tokens + refill(rule, now - level.at)), at: now };
}

/**
 * The level after `spent` more requests were admitted (negative: tokens handed back, never past
 * full). Debt is floored at one full bucket, so however far replicas overshot together, the
 * refusals that pay it back last at most two minutes.
 */
export function charged(rule: BucketRule, level: BucketLevel, spent: number): BucketLevel {
  return { tokens: Math.min(rule.capacity, Math.max(-rule.capacity, level.tokens - spent)), at: level.at };
}

/**
 * The level at `now` of a bucket charged `spent` requests admitted between `since` and `now`.
 * They are counted at `since`, the first of them: counted at `now`, a bucket full at `since`
 * would lose the refill of the time between, which its cap swallowed.
 */
export function chargedSince(rule: BucketRule, level: BucketLevel, spent: number, since: number, now: number): BucketLevel {
  return levelAt(rule, charged(rule, levelAt(rule, level, since), spent), now);
}

/** What the response headers say about a bucket holding `available` tokens at `now`. */
export interface BucketReading {
  /** anthropic-ratelimit-requests-limit */
  limit: number;
  /** anthropic-ratelimit-requests-remaining: whole requests left now. */
  remaining: number;
  /** anthropic-ratelimit-requests-reset: when the bucket is full again (ms since the epoch). */
  resetAt: number;
}

export function readingOf(rule: BucketRule, available: number, now: number): BucketReading {
  return {
    limit: rule.capacity,
    remaining: Math.max(0, Math.floor(available)),
    resetAt: now + Math.ceil(refillMs(rule, Math.max(0, rule.capacity - available))),
  };
}

/** Milliseconds until a bucket holding `available` tokens holds one whole request. */
export const msUntilNextRequest = (rule: BucketRule, available: number): number =>
  Math.max(0, Math.ceil(refillMs(rule, 1 - available)));

/** `retry-after` in whole seconds (RFC 9110: a delay in seconds), at least 1 so a client never spins. */
export const retryAfterSeconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/** The headers every API response carries about the bucket that binds the caller most. */
export function rateLimitHeaders(reading: BucketReading): Record<string, string> {
  return {
    'anthropic-ratelimit-requests-limit': String(reading.limit),
    'anthropic-ratelimit-requests-remaining': String(reading.remaining),
    'anthropic-ratelimit-requests-reset': new Date(reading.resetAt).toISOString(),
  };
}
