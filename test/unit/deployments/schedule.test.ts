import { describe, expect, test } from 'bun:test';
import { pausesDeployment, scheduledFireRefusal } from '../../../services/deployments/src/domain/fire';
import { presentDeployment, presentDeploymentSnapshot } from '../../../services/deployments/src/domain/present';
import { scheduleOf, upcomingRuns } from '../../../services/deployments/src/domain/schedule';
import { deploymentRow } from '../../support/deployment-row';

const daily9 = { scheduleExpression: '0 9 * * *', scheduleTimezone: 'UTC' };
const now = new Date('2026-06-01T08:00:00.000Z');

describe('scheduleOf', () => {
  test('a row has a schedule only when both its expression and its zone are set', () => {
    expect(scheduleOf(deploymentRow(daily9))).toEqual({ expression: '0 9 * * *', timezone: 'UTC' });
    expect(scheduleOf(deploymentRow())).toBeNull();
    expect(scheduleOf(deploymentRow({ scheduleExpression: '0 9 * * *' }))).toBeNull();
    expect(scheduleOf(deploymentRow({ scheduleTimezone: 'UTC' }))).toBeNull();
  });

  test('the view and the event carry the same schedule', () => {
    const row = deploymentRow(daily9);
    expect(presentDeploymentSnapshot(row).schedule).toEqual(scheduleOf(row));
    expect(presentDeployment(row, now).schedule).toEqual({
      type: 'cron',
      expression: '0 9 * * *',
      timezone: 'UTC',
      last_run_at: null,
      upcoming_runs_at: ['2026-06-01T09:00:00.000Z', '2026-06-02T09:00:00.000Z', '2026-06-03T09:00:00.000Z', '2026-06-04T09:00:00.000Z', '2026-06-05T09:00:00.000Z'],
    });
    expect(presentDeployment(deploymentRow(), now).schedule).toBeNull();
  });

  test('upcoming runs are strictly after now, and none once archived', () => {
    const schedule = { expression: '0 9 * * *', timezone: 'UTC' };
    expect(upcomingRuns(schedule, new Date('2026-06-01T09:00:00.000Z'), false)[0]).toBe('2026-06-02T09:00:00.000Z');
    expect(upcomingRuns(schedule, now, true)).toEqual([]);
  });
});

describe('scheduledFireRefusal: the deployment row decides whether an occurrence fires', () => {
  const at = new Date('2026-06-01T09:00:00.000Z');
  test('gone, archived, paused, unscheduled, or an occurrence the schedule does not have', () => {
    expect(scheduledFireRefusal(undefined, at)).toBe('not_found');
    expect(scheduledFireRefusal(deploymentRow({ ...daily9, archivedAt: now, status: 'paused' }), at)).toBe('archived');
    expect(scheduledFireRefusal(deploymentRow({ ...daily9, status: 'paused' }), at)).toBe('paused');
    expect(scheduledFireRefusal(deploymentRow(), at)).toBe('unscheduled');
    expect(scheduledFireRefusal(deploymentRow(daily9), new Date('2026-06-01T09:01:00.000Z'))).toBe('unscheduled');
    expect(scheduledFireRefusal(deploymentRow(daily9), at)).toBeNull();
  });

  test('only a scheduled fire with a paused-reason kind pauses', () => {
    const schedule = { type: 'schedule' as const, scheduled_at: at.toISOString() };
    expect(pausesDeployment(schedule, { type: 'vault_archived_error', message: 'm' })).toBe(true);
    expect(pausesDeployment(schedule, { type: 'session_rate_limited_error', message: 'm' })).toBe(false);
    expect(pausesDeployment({ type: 'manual' }, { type: 'vault_archived_error', message: 'm' })).toBe(false);
    expect(pausesDeployment(schedule, null)).toBe(false);
  });
});
