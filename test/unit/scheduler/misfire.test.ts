import { describe, expect, test } from 'bun:test';
import { compileSchedule } from '@shared/cron';
import { decideDueFire, MISFIRE_COUNT_CAP } from '../../../services/scheduler/src/domain/misfire';

/** The misfire rule with nothing but its inputs: which due occurrence fires, which are skipped. */
const d = (iso: string) => new Date(iso);
const HOUR = 3_600_000;
const everyTen = compileSchedule({ expression: '*/10 * * * *', timezone: 'UTC' });

describe('decideDueFire', () => {
  const base = { schedule: everyTen, jitterMs: 30_000, misfireWindowMs: HOUR };

  test('not due before occurrence + jitter', () => {
    const r = decideDueFire({ ...base, listedOccurrence: d('2026-01-01T00:10:00Z'), now: d('2026-01-01T00:10:29.999Z') });
    expect(r).toEqual({ fire: null, skippedMisfires: 0, next: { occurrence: d('2026-01-01T00:10:00Z'), fireAt: d('2026-01-01T00:10:30Z') } });
  });

  test('on time: fires the listed occurrence and waits for the next', () => {
    const r = decideDueFire({ ...base, listedOccurrence: d('2026-01-01T00:10:00Z'), now: d('2026-01-01T00:10:30Z') });
    expect(r.fire).toEqual(d('2026-01-01T00:10:00Z'));
    expect(r.skippedMisfires).toBe(0);
    expect(r.next?.occurrence).toEqual(d('2026-01-01T00:20:00Z'));
  });

  test('an occurrence whose fire time has not passed is not counted as missed', () => {
    // 00:20 is listed-passed but its fire time (00:20:30) is not: only 00:10 is due.
    const r = decideDueFire({ ...base, listedOccurrence: d('2026-01-01T00:10:00Z'), now: d('2026-01-01T00:20:10Z') });
    expect(r.fire).toEqual(d('2026-01-01T00:10:00Z'));
    expect(r.skippedMisfires).toBe(0);
    expect(r.next?.occurrence).toEqual(d('2026-01-01T00:20:00Z'));
  });

  test('the window bound is inclusive of a fire exactly window-old', () => {
    const listed = d('2026-01-01T00:10:00Z');
    const exactly = decideDueFire({ ...base, listedOccurrence: listed, now: new Date(listed.getTime() + 30_000 + HOUR) });
    // 01:10 is the most recent due occurrence and fires; 00:10 .. 01:00 are skipped.
    expect(exactly.fire).toEqual(d('2026-01-01T01:10:00Z'));
    expect(exactly.skippedMisfires).toBe(6);
    const daily = compileSchedule({ expression: '10 0 * * *', timezone: 'UTC' });
    const atEdge = decideDueFire({ ...base, schedule: daily, listedOccurrence: listed, now: new Date(listed.getTime() + 30_000 + HOUR) });
    expect(atEdge.fire).toEqual(listed);
    const past = decideDueFire({ ...base, schedule: daily, listedOccurrence: listed, now: new Date(listed.getTime() + 30_001 + HOUR) });
    expect(past).toMatchObject({ fire: null, skippedMisfires: 1 });
    expect(past.next?.occurrence).toEqual(d('2026-01-02T00:10:00Z'));
  });

  test('a very long outage is counted up to the cap and still fires the latest occurrence', () => {
    const minutely = compileSchedule({ expression: '* * * * *', timezone: 'UTC' });
    const r = decideDueFire({ ...base, schedule: minutely, listedOccurrence: d('2026-01-01T00:00:00Z'), now: d('2026-02-01T00:00:45Z') });
    expect(r.fire).toEqual(d('2026-02-01T00:00:00Z'));
    expect(r.skippedMisfires).toBe(MISFIRE_COUNT_CAP);
    expect(r.next?.occurrence).toEqual(d('2026-02-01T00:01:00Z'));
  });
  test('every missed occurrence older than the window: none fires, all are counted, the row waits for the next', () => {
    // With no window at all, 00:10 and 00:20 are both past firing by 00:25.
    const narrow = decideDueFire({ ...base, misfireWindowMs: 0, listedOccurrence: d('2026-01-01T00:10:00Z'), now: d('2026-01-01T00:25:00Z') });
    expect(narrow).toEqual({
      fire: null,
      skippedMisfires: 2,
      next: { occurrence: d('2026-01-01T00:30:00Z'), fireAt: d('2026-01-01T00:30:30Z') },
    });
  });
});
