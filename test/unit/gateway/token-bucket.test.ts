import { describe, expect, test } from 'bun:test';
import {
  charged,
  fullLevel,
  levelAt,
  msUntilNextRequest,
  perMinute,
  rateLimitHeaders,
  readingOf,
  retryAfterSeconds,
} from '../../../services/gateway/src/domain/token-bucket';

const T0 = Date.parse('2026-11-22T09:00:00.000Z');
const sixty = perMinute(60); // one token a second

describe('token bucket', () => {
  test('a bucket refills continuously at its limit per minute, never past full', () => {
    const empty = { tokens: 0, at: T0 };
    expect(levelAt(sixty, empty, T0 + 1_500).tokens).toBeCloseTo(1.5);
    expect(levelAt(sixty, empty, T0 + 10 * 60_000)).toEqual({ tokens: 60, at: T0 + 10 * 60_000 });
  });

  test('a clock behind the level\'s own instant adds nothing and takes nothing', () => {
    const level = { tokens: 3, at: T0 };
    expect(levelAt(sixty, level, T0 - 5_000)).toBe(level);
  });

  test('a charge may run into debt, at most one full bucket; a refund never fills past full', () => {
    expect(charged(sixty, fullLevel(sixty, T0), 70)).toEqual({ tokens: -10, at: T0 });
    expect(charged(sixty, fullLevel(sixty, T0), 500)).toEqual({ tokens: -60, at: T0 });
    expect(charged(sixty, { tokens: 59.5, at: T0 }, -3)).toEqual({ tokens: 60, at: T0 });
    // From the floor, two minutes to full.
    expect(levelAt(sixty, { tokens: -60, at: T0 }, T0 + 120_000).tokens).toBe(60);
  });

  test('the reading: whole requests left, and when the bucket is full again', () => {
    expect(readingOf(sixty, 59, T0)).toEqual({ limit: 60, remaining: 59, resetAt: T0 + 1_000 });
    expect(readingOf(sixty, 0.4, T0)).toEqual({ limit: 60, remaining: 0, resetAt: T0 + 59_600 });
    // In debt: nothing left, full only once the debt is paid and the bucket refilled.
    expect(readingOf(sixty, -10, T0)).toEqual({ limit: 60, remaining: 0, resetAt: T0 + 70_000 });
  });

  test('retry after: until one whole request, in whole seconds, at least one', () => {
    expect(msUntilNextRequest(perMinute(5), 0)).toBe(12_000);
    expect(msUntilNextRequest(sixty, 0.75)).toBe(250);
    expect(retryAfterSeconds(250)).toBe(1);
    expect(retryAfterSeconds(12_000)).toBe(12);
    expect(retryAfterSeconds(12_001)).toBe(13);
  });

  test('the headers the official API sends, the reset as an RFC 3339 instant', () => {
    expect(rateLimitHeaders({ limit: 5, remaining: 2, resetAt: T0 + 36_000 })).toEqual({
      'anthropic-ratelimit-requests-limit': '5',
      'anthropic-ratelimit-requests-remaining': '2',
      'anthropic-ratelimit-requests-reset': '2026-11-22T09:00:36.000Z',
    });
  });
});
