import { afterAll, beforeAll, expect, test } from 'bun:test';
import { scheduleJitterMs } from '@shared/cron';
import { deploymentEvents } from '@shared/schema/deployment-events';
import { CrashPlan } from '../support/scheduler/crash-plan';
import { CrashingWorkers } from '../support/scheduler/crashing-workers';
import { seededRandom } from '../support/seeded-random';
import { SchedulerFixture } from '../support/scheduler/scheduler-fixture';
import { snapshot } from '../support/scheduler/snapshot';

/**
 * Three workers sharing one database, 500 minutely deployments, 30 simulated minutes, workers
 * crashing at seeded random points of their work (connections cut between two statements of a
 * claim or a settle, before a fire is sent, or right after a fire was answered but before the
 * batch settled) and coming back. Crash points are counted in steps of work, never timed. Every (deployment, occurrence) must
 * get exactly one run: none missing, none extra. Repeated fire requests for an occurrence
 * already recorded are allowed only as the visible cost of crashes (the fire is idempotent).
 */
const START = '2026-05-04T08:00:00.000Z';
const DEPLOYMENTS = 500;
const MINUTES = 30;
const STEP_MS = 10_000;
const WORKERS = 3;
const BATCH = 10;
const LEASE_MS = 20_000;
/**
 * A batch a crash leaves claimed (a crash before a fire, after a reply, or inside its settle)
 * waits out the lease, LEASE_MS / STEP_MS = 2 steps, before a survivor re-claims it; being the
 * oldest due, it is the first batch claimed in that step, possibly by that step's victim.
 * Three crashes in a row on one batch (in steps s, s+2, s+4) hold it 3 x 20 s, a whole cron
 * period: its occurrence and the next are then both due, and the scheduler fires only the later
 * one (the misfire rule: at most the most recent missed occurrence fires, PRODUCT.md), so the
 * older one is rightly never run and this test could not pass whatever the scheduler does. That
 * streak, not a race, was the rare loss seen under CPU load (timing decides which worker claims
 * the stranded batch first). So no three crashes within five consecutive steps: two in a row
 * still hold a batch only 40 s, fired at most 50 s after its fire time, which leaves a step to spare.
 */
const CRASH_LIMIT = { kills: 2, steps: 2 * (LEASE_MS / STEP_MS) + 1 };
const SEED = Number(process.env.SCHEDULER_TEST_SEED ?? 20261122);

let fx: SchedulerFixture;
beforeAll(async () => {
  fx = await SchedulerFixture.start({
    start: START,
    env: { SCHEDULER_BATCH_SIZE: String(BATCH), SCHEDULER_LEASE_MS: String(LEASE_MS), BUS_TIMEOUT_MS: '3000' },
  });
});
afterAll(() => fx?.stop());

test(`exactly one run per deployment per occurrence across ${WORKERS} crashing workers (seed ${SEED})`, async () => {
  const random = seededRandom(SEED);
  const deployments = Array.from({ length: DEPLOYMENTS }, () => snapshot());
  await Promise.all(deployments.map((s) => fx.publish(deploymentEvents.created, s)));
  await fx.eventsSettled(30_000);

  const crashes = new CrashPlan(CRASH_LIMIT);
  let gracefulRestarts = 0;
  const workers = await CrashingWorkers.start(fx, WORKERS, crashes);

  const end = Date.parse(START) + MINUTES * 60_000;
  while (fx.clock.now().getTime() < end) {
    fx.clock.advance(STEP_MS);
    // A crash planned for this step that its worker did not reach is dropped.
    crashes.nextStep();
    // No crashes in the last minute, so every lease has lapsed by the end.
    const mayCrash = fx.clock.now().getTime() < end - 60_000;
    const roll = random();
    const victim = Math.floor(random() * WORKERS);
    if (mayCrash && roll < 0.12) {
      // Between two statements: inside a claim or a settle transaction (rolled back), or between rounds.
      crashes.arm(victim, 'query', 1 + Math.floor(random() * 24));
    } else if (mayCrash && roll < 0.24) {
      // Claims held, earlier fires of the batch in flight.
      crashes.arm(victim, 'fire', 1 + Math.floor(random() * BATCH));
    } else if (mayCrash && roll < 0.36) {
      // Fires answered, batch not settled: those occurrences are fired again by the survivors.
      crashes.arm(victim, 'answered', 1 + Math.floor(random() * BATCH));
    }
    await workers.drain();
    for (let i = 0; i < WORKERS; i++) {
      if (workers.slots[i]!.isKilled()) await workers.replace(i);
      else if (mayCrash && random() < 0.02) {
        await workers.restart(i);
        gracefulRestarts += 1;
      }
    }
    // Work a crash left claimed is picked up by the survivors once its lease lapses.
    await workers.drain();
  }

  // Just short of the 31st minute: every deployment's 30 occurrences are due, none more.
  fx.clock.set(new Date(end + 59_999));
  await workers.drain();
  const finalNow = fx.clock.now().getTime();
  const expected = new Set<string>();
  for (const s of deployments) {
    const jitter = scheduleJitterMs(s.deployment_id, fx.config.JITTER_MAX_MS);
    for (let t = Date.parse(START) + 60_000; t + jitter <= finalNow; t += 60_000) {
      expected.add(`${s.deployment_id}@${new Date(t).toISOString()}`);
    }
  }
  const actual = new Set(fx.responder.runs.keys());
  const missing = [...expected].filter((k) => !actual.has(k));
  const extra = [...actual].filter((k) => !expected.has(k));
  const repeated = fx.responder.repeatedRequests();
  const skippedMisfires = (await Promise.all(workers.started.map((w) => w.metrics.snapshot()))).reduce((n, s) => n + s.skippedMisfires, 0);
  console.log(
    `exactly-once: ${actual.size} runs (expected ${expected.size}), ${crashes.kills} crashes (${crashes.refused} refused by the limit), ${gracefulRestarts} graceful restarts, ` +
      `${repeated} repeated fire requests absorbed by idempotency, ${skippedMisfires} occurrences skipped as misfires`,
  );
  expect(crashes.kills).toBeGreaterThan(5);
  // No batch may be held until its next occurrence is due (CRASH_LIMIT). A missing occurrence
  // with misfires skipped is a crash streak the limit let through; without any, a scheduler bug.
  expect(skippedMisfires).toBe(0);
  expect(missing).toEqual([]);
  expect(extra).toEqual([]);
  expect(actual.size).toBe(expected.size);
  expect(expected.size).toBe(DEPLOYMENTS * MINUTES);
  // Only a crash between a fire and its settlement makes a worker send an occurrence again.
  expect(repeated).toBeLessThanOrEqual(crashes.kills * BATCH);
  // 30 simulated minutes take about 13 s on a quiet machine; a loaded one (2 cores shared with
  // other suites) took over 120 s, so the budget is generous: no assertion here depends on time.
}, 300_000);
