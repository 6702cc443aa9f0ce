import { describe, expect, test } from 'bun:test';
import { createScheduleCache } from '@shared/cron';
import { firesOnSchedule, planBase, planSnapshotChange } from '../../../services/scheduler/src/domain/snapshot-change';
import { snapshot } from '../../support/scheduler/snapshot';

/** How a deployment snapshot changes the due row, with nothing but its inputs. */
const d = (iso: string) => new Date(iso);

describe('planSnapshotChange', () => {
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

describe('firesOnSchedule', () => {
  test('only an active, unarchived deployment with a schedule fires on it', () => {
    expect(firesOnSchedule(snapshot())).toBe(true);
    expect(firesOnSchedule(snapshot({ status: 'paused' }))).toBe(false);
    expect(firesOnSchedule(snapshot({ archived: true }))).toBe(false);
    expect(firesOnSchedule(snapshot({ schedule: null }))).toBe(false);
  });
});

describe('planBase', () => {
  const now = d('2026-01-01T00:03:00Z');

  test('plans from when the change happened', () => {
    expect(planBase('2026-01-01T00:01:00.000Z', now)).toEqual(d('2026-01-01T00:01:00Z'));
  });

  test('a sender clock ahead of ours, or an unreadable time, counts as now', () => {
    expect(planBase('2026-01-01T00:09:00.000Z', now)).toEqual(now);
    expect(planBase('not a time', now)).toEqual(now);
  });

  test('a late event still leads to the occurrence after the change, not after we heard of it', () => {
    const context = { base: planBase('2026-01-01T00:01:00.000Z', now), jitterMs: 0, schedules: createScheduleCache() };
    const change = planSnapshotChange(snapshot({ schedule: { expression: '*/2 * * * *', timezone: 'UTC' } }), undefined, context);
    expect(change).toMatchObject({ kind: 'replan', next: { occurrence: d('2026-01-01T00:02:00Z') } });
  });
});
