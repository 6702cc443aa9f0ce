import { afterAll, beforeAll, expect, test } from 'bun:test';
import { scheduleJitterMs } from '@shared/cron';
import { deploymentEvents } from '@shared/schema/deployment-events';
import { until } from '../support/eventually';
import { SchedulerFixture } from '../support/scheduler/scheduler-fixture';
import { snapshot } from '../support/scheduler/snapshot';

/**
 * Claiming ahead (SCHEDULER_LOOKAHEAD_MS, on in production): a round claims the rows due
 * within the lookahead and fires each at its own fire time, never before it on the worker's
 * clock; two workers claiming at once get disjoint rows; each occurrence gets one run. The
 * wait is injected and released by the test as it moves the ManualClock (nothing is timed).
 */
const START = '2026-05-04T08:00:00.000Z';
const LOOKAHEAD_MS = 10_000;
const DEPLOYMENTS = 60;

let fx: SchedulerFixture;
beforeAll(async () => {
  fx = await SchedulerFixture.start({
    start: START,
    env: { SCHEDULER_LOOKAHEAD_MS: String(LOOKAHEAD_MS), SCHEDULER_BATCH_SIZE: '100', SCHEDULER_LEASE_MS: '40000' },
  });
});
afterAll(() => fx?.stop());

test('rows claimed ahead fire at their fire time, never before, once each, across two workers', async () => {
  const deployments = Array.from({ length: DEPLOYMENTS }, () => snapshot());
  await Promise.all(deployments.map((s) => fx.publish(deploymentEvents.created, s)));
  await fx.eventsSettled();
  const firstOccurrence = Date.parse(START) + 60_000;
  const fireAt = new Map(deployments.map((s) => [s.deployment_id, firstOccurrence + scheduleJitterMs(s.deployment_id, fx.config.JITTER_MAX_MS)]));
  const dueBy = (t: number) => [...fireAt.values()].filter((at) => at <= t).length;

  // Waits the test releases as it moves the clock.
  const waiting: Array<{ at: number; release: () => void }> = [];
  const waitUntil = (at: Date) =>
    at.getTime() <= fx.clock.now().getTime() ? Promise.resolve() : new Promise<void>((release) => waiting.push({ at: at.getTime(), release }));
  // Every fire request, checked as it is sent: the k-th one needs k rows whose fire time has passed.
  let sent = 0;
  const early: string[] = [];
  const onStep = (step: string) => {
    if (step !== 'fire') return;
    sent += 1;
    if (sent > dueBy(fx.clock.now().getTime())) early.push(`fire #${sent} at ${fx.clock.now().toISOString()}`);
  };
  const workers = [await fx.startWorker('a', { waitUntil, onStep }), await fx.startWorker('b', { waitUntil, onStep })];

  // The clock stops short of the first fire time: nothing is due, but the lookahead holds a part of the rows.
  const claimAt = Math.min(...fireAt.values()) - 1;
  fx.clock.set(new Date(claimAt));
  const claimable = dueBy(claimAt + LOOKAHEAD_MS);
  expect(claimable).toBeGreaterThan(1);
  expect(claimable).toBeLessThan(DEPLOYMENTS);
  const rounds = workers.map((w) => w.tick());
  await until('both rounds to claim', () => waiting.length === claimable, { timeoutMs: 10_000, intervalMs: 5 });
  expect(sent).toBe(0);

  // Walk the clock through the claimed fire times, releasing the waits that are due.
  for (const at of [...new Set(waiting.map((w) => w.at))].sort((a, b) => a - b)) {
    fx.clock.set(new Date(at));
    for (const w of waiting.filter((x) => x.at <= at)) w.release();
    await until('the due fires to be answered', () => fx.responder.runs.size === dueBy(at), { timeoutMs: 10_000, intervalMs: 5 });
  }
  const summaries = await Promise.all(rounds);

  expect(early).toEqual([]);
  // Disjoint claims: together the two rounds claimed each claimable row once, and each fired.
  expect(summaries.reduce((n, s) => n + s.claimed, 0)).toBe(claimable);
  expect(summaries.reduce((n, s) => n + s.fired, 0)).toBe(claimable);
  expect(summaries.reduce((n, s) => n + s.held, 0)).toBe(claimable);
  expect(fx.responder.repeatedRequests()).toBe(0);
  for (const [id, at] of fireAt) {
    expect(fx.responder.runsOf(id)).toEqual(at <= claimAt + LOOKAHEAD_MS ? [new Date(firstOccurrence).toISOString()] : []);
  }
  // A fired row waits for its next occurrence, unclaimed.
  const fired = deployments.find((s) => fireAt.get(s.deployment_id)! <= claimAt + LOOKAHEAD_MS)!;
  const row = await fx.row(fired.deployment_id);
  expect(row.next_occurrence_at.toISOString()).toBe(new Date(firstOccurrence + 60_000).toISOString());
  expect(row.claimed_by).toBeNull();
});
