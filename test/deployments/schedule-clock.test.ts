/**
 * upcoming_runs_at is computed from the injected clock with literal wall-clock semantics: the
 * exact next five occurrences, a local time skipped by DST never listed, one repeated listed twice.
 */
import { expect, test } from 'bun:test';
import { sql } from 'drizzle-orm';
import { ManualClock } from '@shared/time/clock';
import { expectOk } from '../support/expect';
import { createDeployment, useDeploymentStack } from '../support/fixtures';

const clock = new ManualClock('2026-03-07T12:00:00.000Z');
const t = useDeploymentStack({ clock });

const schedule = (expression: string, timezone: string) => ({ schedule: { type: 'cron', expression, timezone } });

/** New York's two DST changes of 2026: each row is a clock, a daily schedule and its next five occurrences. */
const DST_CASES = [
  {
    name: 'spring forward: 02:30 New York does not exist on 8 March 2026 and is not listed',
    now: '2026-03-07T12:00:00.000Z',
    expression: '30 2 * * *',
    upcoming: ['2026-03-09T06:30:00.000Z', '2026-03-10T06:30:00.000Z', '2026-03-11T06:30:00.000Z', '2026-03-12T06:30:00.000Z', '2026-03-13T06:30:00.000Z'],
  },
  {
    name: 'fall back: 01:30 New York happens twice on 1 November 2026 and is listed twice',
    now: '2026-10-31T12:00:00.000Z',
    expression: '30 1 * * *',
    upcoming: ['2026-11-01T05:30:00.000Z', '2026-11-01T06:30:00.000Z', '2026-11-02T06:30:00.000Z', '2026-11-03T06:30:00.000Z', '2026-11-04T06:30:00.000Z'],
  },
];
for (const { name, now, expression, upcoming } of DST_CASES) {
  test(name, async () => {
    clock.set(now);
    const d = await createDeployment(t.api, t.world.body(schedule(expression, 'America/New_York')));
    expect(d.created_at).toBe(now);
    expect(d.schedule.upcoming_runs_at).toEqual(upcoming);
  });
}

test('occurrences are strictly after now and move with the clock when listed', async () => {
  clock.set('2026-06-01T08:59:59.999Z');
  const d = await createDeployment(t.api, t.world.body(schedule('0 9 * * 1-5', 'UTC')));
  expect(d.schedule.upcoming_runs_at[0]).toBe('2026-06-01T09:00:00.000Z');
  clock.set('2026-06-01T09:00:00.000Z');
  const listed = (await t.api('GET', '/v1/deployments', { query: { limit: '100' } })).body.data.find((x: any) => x.id === d.id);
  expect(listed.schedule.upcoming_runs_at).toEqual([
    '2026-06-02T09:00:00.000Z',
    '2026-06-03T09:00:00.000Z',
    '2026-06-04T09:00:00.000Z',
    '2026-06-05T09:00:00.000Z',
    '2026-06-08T09:00:00.000Z',
  ]);
});

test('archived: upcoming_runs_at is empty, the schedule and last_run_at are kept; paused: still listed', async () => {
  clock.set('2026-06-10T00:00:00.000Z');
  const archived = await createDeployment(t.api, t.world.body(schedule('0 * * * *', 'Asia/Kolkata')));
  const paused = await createDeployment(t.api, t.world.body(schedule('0 * * * *', 'Asia/Kolkata')));
  const { db } = t.stack.service('deployments').database;
  await db.execute(
    sql`UPDATE deployments SET archived_at = '2026-06-10 00:00:01.000', last_run_at = '2026-06-09 23:30:00.000' WHERE id = ${archived.id}`,
  );
  expectOk(await t.api('POST', `/v1/deployments/${paused.id}/pause`), 'pause');
  const listed = (await t.api('GET', '/v1/deployments', { query: { limit: '100', include_archived: 'true' } })).body.data;
  const a = listed.find((x: any) => x.id === archived.id);
  expect(a.schedule).toEqual({
    type: 'cron',
    expression: '0 * * * *',
    timezone: 'Asia/Kolkata',
    last_run_at: '2026-06-09T23:30:00.000Z',
    upcoming_runs_at: [],
  });
  const p = listed.find((x: any) => x.id === paused.id);
  expect(p.status).toBe('paused');
  // Kolkata is UTC+05:30: the top of each local hour is half past in UTC.
  expect(p.schedule.upcoming_runs_at).toEqual([
    '2026-06-10T00:30:00.000Z',
    '2026-06-10T01:30:00.000Z',
    '2026-06-10T02:30:00.000Z',
    '2026-06-10T03:30:00.000Z',
    '2026-06-10T04:30:00.000Z',
  ]);
});
