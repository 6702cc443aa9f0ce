import { describe, expect, test } from 'bun:test';
import { compileSchedule, scheduleJitterMs } from '@shared/cron';
import { nextFireAfter, withJitter } from '../../../services/scheduler/src/domain/next-fire';

/** When a row next becomes due: the listed occurrence plus the deployment's fixed jitter. */
const d = (iso: string) => new Date(iso);
const hourly = compileSchedule({ expression: '0 * * * *', timezone: 'UTC' });

describe('nextFireAfter', () => {
  test('the first occurrence strictly after the instant, due jitter later', () => {
    expect(nextFireAfter(hourly, 45_000, d('2026-01-01T00:30:00Z'))).toEqual({
      occurrence: d('2026-01-01T01:00:00Z'),
      fireAt: d('2026-01-01T01:00:45Z'),
    });
    // An occurrence exactly at the instant is not "after" it.
    expect(nextFireAfter(hourly, 45_000, d('2026-01-01T01:00:00Z'))?.occurrence).toEqual(d('2026-01-01T02:00:00Z'));
  });

  test('jitter moves the fire time, never the listed occurrence', () => {
    for (const jitter of [0, 1, 59_999]) {
      const next = nextFireAfter(hourly, jitter, d('2026-01-01T00:30:00Z'))!;
      expect(next.occurrence).toEqual(d('2026-01-01T01:00:00Z'));
      expect(next.fireAt.getTime() - next.occurrence.getTime()).toBe(jitter);
    }
  });

  test('a deployment keeps the same jitter wherever it is computed', () => {
    const jitter = scheduleJitterMs('depl_same', 60_000);
    expect(scheduleJitterMs('depl_same', 60_000)).toBe(jitter);
    expect(withJitter(d('2026-01-01T01:00:00Z'), jitter).fireAt.getTime()).toBe(Date.parse('2026-01-01T01:00:00Z') + jitter);
  });

  test('local time, not UTC: a New York schedule across the spring-forward jump', () => {
    const twoThirty = compileSchedule({ expression: '30 2 * * *', timezone: 'America/New_York' });
    // 02:30 does not exist on 2026-03-08: the next one is 02:30 EDT on the 9th.
    expect(nextFireAfter(twoThirty, 0, d('2026-03-07T08:00:00Z'))?.occurrence).toEqual(d('2026-03-09T06:30:00Z'));
  });
});
