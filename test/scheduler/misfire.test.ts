import { afterAll, beforeAll, expect, test } from 'bun:test';
import { scheduleJitterMs } from '@shared/cron';
import { deploymentEvents } from '@shared/schema/deployment-events';
import { SchedulerFixture } from '../support/scheduler/scheduler-fixture';
import { snapshot } from '../support/scheduler/snapshot';

let fx: SchedulerFixture;
beforeAll(async () => {
  fx = await SchedulerFixture.start({ start: '2026-01-10T00:00:00.000Z' });
});
afterAll(() => fx?.stop());

test('after downtime only the most recent missed occurrence fires, within the window; the rest are counted', async () => {
  const everyTen = snapshot({ schedule: { expression: '*/10 * * * *', timezone: 'UTC' } });
  const daily = snapshot({ schedule: { expression: '30 0 * * *', timezone: 'UTC' } });
  await fx.publish(deploymentEvents.created, everyTen);
  await fx.publish(deploymentEvents.created, daily);
  await fx.eventsSettled();
  const worker = await fx.startWorker();
  const jitter = scheduleJitterMs(everyTen.deployment_id, fx.config.JITTER_MAX_MS);

  fx.clock.set(new Date(Date.parse('2026-01-10T00:10:00.000Z') + jitter));
  await fx.drain(worker);
  expect(fx.responder.runsOf(everyTen.deployment_id)).toEqual(['2026-01-10T00:10:00.000Z']);

  // Down from 00:10 to 02:45: everyTen missed 00:20 .. 02:40 (15); daily missed 00:30, now 2h15m old.
  fx.clock.set('2026-01-10T02:45:00.000Z');
  await fx.drain(worker);
  expect(fx.responder.runsOf(everyTen.deployment_id)).toEqual(['2026-01-10T00:10:00.000Z', '2026-01-10T02:40:00.000Z']);
  expect(fx.responder.runsOf(daily.deployment_id)).toEqual([]);
  expect((await worker.metrics.snapshot()).skippedMisfires).toBe(14 + 1);
  expect((await fx.row(everyTen.deployment_id))?.next_occurrence_at.toISOString()).toBe('2026-01-10T02:50:00.000Z');
  expect((await fx.row(daily.deployment_id))?.next_occurrence_at.toISOString()).toBe('2026-01-11T00:30:00.000Z');
  expect(await worker.metrics.render()).toContain('scheduler_skipped_misfires_total 15');

  // Back to normal: the next occurrence fires on time, nothing more is skipped.
  fx.clock.set(new Date(Date.parse('2026-01-10T02:50:00.000Z') + jitter));
  await fx.drain(worker);
  expect(fx.responder.runsOf(everyTen.deployment_id)).toHaveLength(3);
  expect((await worker.metrics.snapshot()).skippedMisfires).toBe(15);
  expect(fx.responder.repeatedRequests()).toBe(0);
});

test('the backlog gauge counts rows due now', async () => {
  const worker = await fx.startWorker();
  fx.clock.set('2026-01-10T03:00:00.000Z');
  const s = snapshot({ schedule: { expression: '*/10 * * * *', timezone: 'UTC' } });
  await fx.publish(deploymentEvents.created, s);
  await fx.eventsSettled();
  fx.clock.set('2026-01-10T03:20:00.000Z');
  const due = await worker.measureBacklog();
  expect(due).toBeGreaterThanOrEqual(1);
  expect(await worker.metrics.render()).toContain(`scheduler_due_backlog ${due}`);
  await fx.drain(worker);
  expect(await worker.measureBacklog()).toBe(0);
});
