import { describe, expect, test } from 'bun:test';
import { compileSchedule } from '@shared/cron';
import { createScheduleCache } from '@shared/cron/schedule-cache';
import { decideDueFire, MISFIRE_COUNT_CAP } from '../../services/scheduler/src/domain/misfire';
import { planSnapshotChange } from '../../services/scheduler/src/domain/snapshot-change';
import { snapshot } from './support/scheduler-fixture';

const d = (iso: string) => new Date(iso);
const HOUR = 3_600_000;
const everyTen = compileSchedule({ expression: '*/10 * * * *', timezone: 'UTC' });

describe('decideDueFire (pure)', () => {
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
});

describe('planSnapshotChange (pure)', () => {
  const context = { base: d('2026-01-01T00:03:00Z'), jitterMs: 1_000, schedules: createScheduleCache() };
  const s = snapshot({ schedule: { expression: '*/10 * * * *', timezone: 'UTC' }, revision: 5 });
  const stored = { revision: 5, active: true, expression: '*/10 * * * *', timezone: 'UTC' };

  test('same or older revision is stale', () => {
    expect(planSnapshotChange(s, stored, context)).toEqual({ kind: 'stale' });
    expect(planSnapshotChange({ ...s, revision: 4 }, stored, context)).toEqual({ kind: 'stale' });
  });

  test('a newer revision with the same schedule keeps the timing', () => {
    expect(planSnapshotChange({ ...s, revision: 6 }, stored, context)).toEqual({ kind: 'keep_timing' });
  });

  test('a new schedule, an unpause or a first snapshot replans from the base instant', () => {
    const expected = { kind: 'replan', active: true, next: { occurrence: d('2026-01-01T00:10:00Z'), fireAt: d('2026-01-01T00:10:01Z') } };
    expect(planSnapshotChange(s, undefined, context)).toMatchObject(expected);
    expect(planSnapshotChange({ ...s, revision: 6 }, { ...stored, active: false }, context)).toMatchObject(expected);
    expect(planSnapshotChange({ ...s, revision: 6, schedule: { expression: '0 * * * *', timezone: 'UTC' } }, stored, context)).toMatchObject({
      kind: 'replan',
      next: { occurrence: d('2026-01-01T01:00:00Z') },
    });
  });

  test('paused, archived and unscheduled deactivate', () => {
    for (const change of [{ status: 'paused' as const }, { archived: true }, { schedule: null }]) {
      expect(planSnapshotChange({ ...s, ...change, revision: 6 }, stored, context)).toMatchObject({ kind: 'replan', active: false, next: null });
    }
  });

  test('a schedule this runtime cannot evaluate is stored inactive with the reason', () => {
    const change = planSnapshotChange({ ...s, schedule: { expression: '*/10 * * * *', timezone: 'Mars/Olympus' } }, undefined, context);
    expect(change).toMatchObject({ kind: 'replan', active: false });
    expect(change.kind === 'replan' && change.invalid).toContain('unknown timezone');
  });
});

describe('scheduler configuration', () => {
  test('defaults, and a lease shorter than the bus timeout is refused naming the variable', async () => {
    const { loadSchedulerConfig } = await import('../../services/scheduler/src/config');
    const config = loadSchedulerConfig({});
    expect(config).toMatchObject({
      SCHEDULER_BATCH_SIZE: 50,
      SCHEDULER_POLL_MS: 1000,
      MISFIRE_WINDOW_MS: 3_600_000,
      JITTER_MAX_MS: 60_000,
    });
    expect(config.SCHEDULER_WORKER_ID).toEndWith(`-${process.pid}`);
    expect(() => loadSchedulerConfig({ SCHEDULER_LEASE_MS: '4000' })).toThrow(/SCHEDULER_LEASE_MS/);
    expect(() => loadSchedulerConfig({ SCHEDULER_BATCH_SIZE: '0' })).toThrow(/SCHEDULER_BATCH_SIZE/);
  });
});
