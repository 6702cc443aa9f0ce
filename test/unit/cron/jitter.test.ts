import { describe, expect, test } from 'bun:test';
import { scheduleJitterMs } from '@shared/cron/index.ts';

describe('scheduleJitterMs', () => {
  test('is deterministic per deployment id', () => {
    expect(scheduleJitterMs('dep_01HZX')).toBe(scheduleJitterMs('dep_01HZX'));
  });

  test('stays within [0, maxMs) and spreads ids out', () => {
    const values = Array.from({ length: 2000 }, (_, i) => scheduleJitterMs(`dep_${i}`));
    for (const value of values) {
      expect(Number.isInteger(value)).toBe(true);
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(60_000);
    }
    // Every 6-second bucket of the minute gets some ids.
    const buckets = new Set(values.map((v) => Math.floor(v / 6000)));
    expect(buckets.size).toBe(10);
    expect(new Set(values).size).toBeGreaterThan(1900);
  });

  test('honours maxMs', () => {
    for (let i = 0; i < 200; i++) expect(scheduleJitterMs(`dep_${i}`, 1000)).toBeLessThan(1000);
    expect(scheduleJitterMs('dep_1', 0)).toBe(0);
    expect(() => scheduleJitterMs('dep_1', -1)).toThrow(RangeError);
  });
});
