import { afterAll, beforeAll, expect, test } from 'bun:test';
import { scheduleJitterMs } from '@shared/cron';
import { deploymentEvents } from '@shared/schema/deployment-events';
import { SchedulerFixture, seededRandom, snapshot, type Worker } from './support/scheduler-fixture';

/**
 * Three workers sharing one database, 500 minutely deployments, 30 simulated minutes, workers
 * crashing at random points (connections cut mid-claim, mid-fire, or right after a fire was
 * answered but before the batch settled) and coming back. Every (deployment, occurrence) must
 * get exactly one run: none missing, none extra. Repeated fire requests for an occurrence
 * already recorded are allowed only as the visible cost of crashes (the fire is idempotent).
 */
const START = '2026-05-04T08:00:00.000Z';
const DEPLOYMENTS = 500;
const MINUTES = 30;
const STEP_MS = 10_000;
const WORKERS = 3;
const BATCH = 10;
const SEED = Number(process.env.SCHEDULER_TEST_SEED ?? 20261122);

let fx: SchedulerFixture;
beforeAll(async () => {
  fx = await SchedulerFixture.start({
    start: START,
    env: { SCHEDULER_BATCH_SIZE: String(BATCH), SCHEDULER_LEASE_MS: '20000', BUS_TIMEOUT_MS: '3000' },
  });
});
afterAll(() => fx?.stop());

test(`exactly one run per deployment per occurrence across ${WORKERS} crashing workers (seed ${SEED})`, async () => {
  const random = seededRandom(SEED);
  const deployments = Array.from({ length: DEPLOYMENTS }, () => snapshot());
  await Promise.all(deployments.map((s) => fx.publish(deploymentEvents.created, s)));
  await fx.eventsSettled(30_000);

  let kills = 0;
  let gracefulRestarts = 0;
  let restarts = 0;
  /** Per step, a worker may be told to crash after its n-th answered fire. */
  const crashAfter = new Map<number, number>();
  const start = async (slot: number): Promise<Worker> => {
    const worker: Worker = await fx.startWorker(`w${slot}-${restarts++}`, {
      poolSize: 2,
      afterFire: () => {
        const left = crashAfter.get(slot);
        if (left === undefined) return;
        if (left <= 1) {
          crashAfter.delete(slot);
          kills += 1;
          worker.kill();
        } else crashAfter.set(slot, left - 1);
      },
    });
    return worker;
  };
  const slots: Worker[] = [];
  for (let i = 0; i < WORKERS; i++) slots.push(await start(i));

  const end = Date.parse(START) + MINUTES * 60_000;
  while (fx.clock.now().getTime() < end) {
    fx.clock.advance(STEP_MS);
    crashAfter.clear();
    // No crashes in the last minute, so every lease has lapsed by the end.
    const mayCrash = fx.clock.now().getTime() < end - 60_000;
    const roll = random();
    const victim = Math.floor(random() * WORKERS);
    const delayMs = random() * 8;
    const nth = 1 + Math.floor(random() * BATCH);
    if (mayCrash && roll < 0.18) {
      setTimeout(() => {
        if (slots[victim]!.isKilled()) return;
        kills += 1;
        slots[victim]!.kill();
      }, delayMs);
    } else if (mayCrash && roll < 0.36) {
      crashAfter.set(victim, nth);
    }
    await Promise.all(slots.map((w) => fx.drain(w)));
    await Bun.sleep(delayMs > 0 && roll < 0.18 ? 9 : 0);
    for (let i = 0; i < WORKERS; i++) {
      if (slots[i]!.isKilled()) slots[i] = await start(i);
      else if (mayCrash && random() < 0.02) {
        await slots[i]!.close();
        gracefulRestarts += 1;
        slots[i] = await start(i);
      }
    }
    // Work a crash left claimed is picked up by the survivors once its lease lapses.
    await Promise.all(slots.map((w) => fx.drain(w)));
  }

  // Just short of the 31st minute: every deployment's 30 occurrences are due, none more.
  fx.clock.set(new Date(end + 59_999));
  await Promise.all(slots.map((w) => fx.drain(w)));
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
  console.log(
    `exactly-once: ${actual.size} runs (expected ${expected.size}), ${kills} crashes, ${gracefulRestarts} graceful restarts, ` +
      `${repeated} repeated fire requests absorbed by idempotency`,
  );
  expect(kills).toBeGreaterThan(5);
  expect(missing).toEqual([]);
  expect(extra).toEqual([]);
  expect(actual.size).toBe(expected.size);
  expect(expected.size).toBe(DEPLOYMENTS * MINUTES);
  // Only a crash between a fire and its settlement makes a worker send an occurrence again.
  expect(repeated).toBeLessThanOrEqual(kills * BATCH);
}, 120_000);
