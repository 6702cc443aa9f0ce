import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { scheduleJitterMs } from '@shared/cron';
import { deploymentEvents } from '@shared/schema/deployment-events';
import { SchedulerFixture, type Worker } from '../support/scheduler/scheduler-fixture';
import { snapshot } from '../support/scheduler/snapshot';

const T0 = '2026-03-02T10:00:00.000Z';
const at = (iso: string, plusMs = 0) => new Date(Date.parse(iso) + plusMs);

let fx: SchedulerFixture;
let worker: Worker;

beforeAll(async () => {
  fx = await SchedulerFixture.start({ start: T0 });
  worker = await fx.startWorker();
});
afterAll(() => fx?.stop());

/** Each test moves the shared clock forward only, from wherever the last one left it. */
async function createAt(iso: string, overrides: Parameters<typeof snapshot>[0] = {}) {
  fx.clock.set(iso);
  const s = snapshot({ schedule: { expression: '*/5 * * * *', timezone: 'UTC' }, ...overrides });
  await fx.publish(deploymentEvents.created, s);
  await fx.eventsSettled();
  return { s, jitter: scheduleJitterMs(s.deployment_id, fx.config.JITTER_MAX_MS) };
}

describe('a schedule created by event', () => {
  test('fires at the listed occurrence plus its jitter, with the tenant as caller', async () => {
    const { s, jitter } = await createAt('2026-03-02T10:00:00.000Z');
    const row = await fx.row(s.deployment_id);
    expect(row?.next_occurrence_at.toISOString()).toBe('2026-03-02T10:05:00.000Z');
    expect(row?.next_fire_at.getTime()).toBe(Date.parse('2026-03-02T10:05:00.000Z') + jitter);

    fx.clock.set(at('2026-03-02T10:05:00.000Z', jitter - 1));
    await fx.drain(worker);
    expect(fx.responder.runsOf(s.deployment_id)).toEqual([]);

    fx.clock.advance(1);
    await fx.drain(worker);
    expect(fx.responder.runsOf(s.deployment_id)).toEqual(['2026-03-02T10:05:00.000Z']);
    const request = fx.responder.requests.find((r) => r.deploymentId === s.deployment_id)!;
    expect(request.context.tenant).toEqual({
      organization_id: s.organization_id,
      workspace_id: s.workspace_id,
      scope: 'read_write',
      key_id: 'scheduler',
    });
    expect(request.context.request_id).toMatch(/^req_/);
    expect((await fx.row(s.deployment_id))?.next_occurrence_at.toISOString()).toBe('2026-03-02T10:10:00.000Z');
    const metrics = await worker.metrics.snapshot();
    expect(metrics.fires['outcome="fired"']).toBeGreaterThanOrEqual(1);
    expect(metrics.lagCount).toBeGreaterThanOrEqual(1);
  });
});

describe('deployment state changes', () => {
  test('pause and archive stop fires; unpause resumes from the unpause instant, without replaying', async () => {
    const { s, jitter } = await createAt('2026-03-02T11:00:00.000Z');
    fx.clock.set(at('2026-03-02T11:05:00.000Z', jitter));
    await fx.drain(worker);
    expect(fx.responder.runsOf(s.deployment_id)).toEqual(['2026-03-02T11:05:00.000Z']);

    fx.clock.set('2026-03-02T11:07:00.000Z');
    await fx.publish(deploymentEvents.paused, { ...s, status: 'paused', revision: 2 });
    await fx.eventsSettled();
    expect((await fx.row(s.deployment_id))?.active).toBe(0);
    fx.clock.set('2026-03-02T11:31:00.000Z');
    await fx.drain(worker);
    expect(fx.responder.runsOf(s.deployment_id)).toHaveLength(1);

    await fx.publish(deploymentEvents.unpaused, { ...s, status: 'active', revision: 3 });
    await fx.eventsSettled();
    fx.clock.set(at('2026-03-02T11:35:00.000Z', jitter));
    await fx.drain(worker);
    expect(fx.responder.runsOf(s.deployment_id)).toEqual(['2026-03-02T11:05:00.000Z', '2026-03-02T11:35:00.000Z']);

    await fx.publish(deploymentEvents.archived, { ...s, archived: true, revision: 4 });
    await fx.eventsSettled();
    fx.clock.set('2026-03-02T11:59:00.000Z');
    await fx.drain(worker);
    expect(fx.responder.runsOf(s.deployment_id)).toHaveLength(2);
    expect((await fx.row(s.deployment_id))?.next_fire_at).toBeNull();
  });

  test('an older revision arriving late is ignored', async () => {
    const { s } = await createAt('2026-03-02T12:00:00.000Z');
    await fx.publish(deploymentEvents.updated, { ...s, schedule: { expression: '0 * * * *', timezone: 'UTC' }, revision: 3 });
    await fx.publish(deploymentEvents.updated, { ...s, schedule: { expression: '*/10 * * * *', timezone: 'UTC' }, revision: 2 });
    await fx.publish(deploymentEvents.paused, { ...s, status: 'paused', revision: 2 });
    await fx.eventsSettled();
    const row = await fx.row(s.deployment_id);
    expect(row).toMatchObject({ expression: '0 * * * *', revision: 3, active: 1 });
    expect(row?.next_occurrence_at.toISOString()).toBe('2026-03-02T13:00:00.000Z');
  });

  test('an update that keeps the schedule keeps the cadence', async () => {
    const { s } = await createAt('2026-03-02T12:01:00.000Z');
    fx.clock.set('2026-03-02T12:02:00.000Z');
    await fx.publish(deploymentEvents.updated, { ...s, revision: 2 });
    await fx.eventsSettled();
    const row = await fx.row(s.deployment_id);
    expect(row).toMatchObject({ revision: 2, active: 1 });
    expect(row?.next_occurrence_at.toISOString()).toBe('2026-03-02T12:05:00.000Z');
  });

  test('a redelivered or republished snapshot changes nothing and never doubles a fire', async () => {
    const { s, jitter } = await createAt('2026-03-02T13:00:00.000Z');
    const created = await fx.publish(deploymentEvents.created, s);
    fx.clock.set(at('2026-03-02T13:05:00.000Z', jitter));
    await fx.drain(worker);
    // The same event again, as an outbox relay retrying outside the stream's dedupe window would.
    await fx.publishRaw(deploymentEvents.created.subject, JSON.stringify(created));
    await fx.publishRaw(deploymentEvents.created.subject, JSON.stringify(created));
    await fx.eventsSettled();
    expect((await fx.row(s.deployment_id))?.next_occurrence_at.toISOString()).toBe('2026-03-02T13:10:00.000Z');
    await fx.drain(worker);
    fx.clock.set(at('2026-03-02T13:10:00.000Z', jitter));
    await fx.drain(worker);
    await fx.drain(worker);
    expect(fx.responder.runsOf(s.deployment_id)).toEqual(['2026-03-02T13:05:00.000Z', '2026-03-02T13:10:00.000Z']);
    expect(fx.responder.repeatedRequests()).toBe(0);
  });

  test('removing the schedule deactivates the row', async () => {
    const { s } = await createAt('2026-03-02T13:11:00.000Z');
    await fx.publish(deploymentEvents.updated, { ...s, schedule: null, revision: 2 });
    await fx.eventsSettled();
    expect(await fx.row(s.deployment_id)).toMatchObject({ active: 0, expression: null, next_fire_at: null, revision: 2 });
  });
});

describe('what the deployments service answers', () => {
  test('skipped (paused there, snapshot not here yet) deactivates until a newer snapshot', async () => {
    const { s, jitter } = await createAt('2026-03-02T14:00:00.000Z');
    fx.responder.skip(s.deployment_id, 'paused');
    fx.clock.set(at('2026-03-02T14:05:00.000Z', jitter));
    await fx.drain(worker);
    expect(await fx.row(s.deployment_id)).toMatchObject({ active: 0, revision: 1 });
    expect((await worker.metrics.snapshot()).fires['outcome="skipped",reason="paused"']).toBeGreaterThanOrEqual(1);

    fx.responder.skip(s.deployment_id, null);
    fx.clock.set('2026-03-02T14:06:00.000Z');
    await fx.publish(deploymentEvents.unpaused, { ...s, revision: 3 });
    await fx.eventsSettled();
    fx.clock.set(at('2026-03-02T14:10:00.000Z', jitter));
    await fx.drain(worker);
    expect(fx.responder.runsOf(s.deployment_id)).toEqual(['2026-03-02T14:10:00.000Z']);
  });

  test('a bus error leaves the occurrence due and retries it after the retry delay', async () => {
    const { s, jitter } = await createAt('2026-03-02T15:00:00.000Z');
    fx.responder.failNext(s.deployment_id, 1);
    fx.clock.set(at('2026-03-02T15:05:00.000Z', jitter));
    await fx.drain(worker);
    expect(fx.responder.runsOf(s.deployment_id)).toEqual([]);
    expect((await fx.row(s.deployment_id))?.next_occurrence_at.toISOString()).toBe('2026-03-02T15:05:00.000Z');
    expect((await worker.metrics.snapshot()).fires['outcome="failed",reason="overloaded_error"']).toBeGreaterThanOrEqual(1);

    fx.clock.advance(fx.config.SCHEDULER_RETRY_MS - 1);
    await fx.drain(worker);
    expect(fx.responder.runsOf(s.deployment_id)).toEqual([]);
    fx.clock.advance(1);
    await fx.drain(worker);
    expect(fx.responder.runsOf(s.deployment_id)).toEqual(['2026-03-02T15:05:00.000Z']);
  });
});
