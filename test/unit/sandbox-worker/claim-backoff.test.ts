import { describe, expect, test } from 'bun:test';
import { claimBackoffMs } from '../../../services/sandbox-worker/src/domain/claim-backoff';

describe('claimBackoffMs', () => {
  test('doubles from half a second with each failure in a row', () => {
    expect([1, 2, 3, 4].map(claimBackoffMs)).toEqual([500, 1000, 2000, 4000]);
  });
  test('never waits more than 30 s, however long the failures go on', () => {
    expect(claimBackoffMs(7)).toBe(30_000);
    expect(claimBackoffMs(10_000)).toBe(30_000);
  });
});
