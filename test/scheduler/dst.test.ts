import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { deploymentEvents } from '@shared/schema/deployment-events';
import { SchedulerFixture, type Worker } from '../support/scheduler/scheduler-fixture';
import { snapshot } from '../support/scheduler/snapshot';

/**
 * Literal wall-clock rule in America/New_York, through the whole scheduler: 02:30 does not exist
 * on 2026-03-08 (clocks jump 02:00 -> 03:00) and 01:30 happens twice on 2026-11-01.
 */
let fx: SchedulerFixture;
let worker: Worker;
beforeAll(async () => {
  fx = await SchedulerFixture.start({ start: '2026-03-07T00:00:00.000Z' });
  worker = await fx.startWorker();
});
afterAll(() => fx?.stop());

const STEP_MS = 5 * 60_000;

async function createPair() {
  const twoThirty = snapshot({ schedule: { expression: '30 2 * * *', timezone: 'America/New_York' } });
  const oneThirty = snapshot({ schedule: { expression: '30 1 * * *', timezone: 'America/New_York' } });
  await fx.publish(deploymentEvents.created, twoThirty);
  await fx.publish(deploymentEvents.created, oneThirty);
  await fx.eventsSettled();
  return { twoThirty, oneThirty };
}

const runUntil = (iso: string) => fx.runUntil(iso, STEP_MS);

describe('DST in America/New_York', () => {
  test('spring forward: no 02:30 on 2026-03-08; 01:30 still once', async () => {
    const { twoThirty, oneThirty } = await createPair();
    await runUntil('2026-03-10T00:00:00.000Z');
    expect(fx.responder.runsOf(twoThirty.deployment_id)).toEqual([
      '2026-03-07T07:30:00.000Z', // 02:30 EST
      '2026-03-09T06:30:00.000Z', // 02:30 EDT; nothing on the 8th
    ]);
    expect(fx.responder.runsOf(oneThirty.deployment_id)).toEqual([
      '2026-03-07T06:30:00.000Z',
      '2026-03-08T06:30:00.000Z', // 01:30 EST, before the jump
      '2026-03-09T05:30:00.000Z',
    ]);
  });

  test('fall back: 01:30 fires twice on 2026-11-01; 02:30 once', async () => {
    fx.clock.set('2026-10-31T00:00:00.000Z');
    await fx.drain(worker); // the spring pair's missed occurrences, long outside the window
    const { twoThirty, oneThirty } = await createPair();
    await runUntil('2026-11-03T00:00:00.000Z');
    expect(fx.responder.runsOf(oneThirty.deployment_id)).toEqual([
      '2026-10-31T05:30:00.000Z',
      '2026-11-01T05:30:00.000Z', // 01:30 EDT
      '2026-11-01T06:30:00.000Z', // 01:30 EST, an hour later
      '2026-11-02T06:30:00.000Z',
    ]);
    expect(fx.responder.runsOf(twoThirty.deployment_id)).toEqual([
      '2026-10-31T06:30:00.000Z',
      '2026-11-01T07:30:00.000Z',
      '2026-11-02T07:30:00.000Z',
    ]);
    expect(fx.responder.repeatedRequests()).toBe(0);
  });
});
