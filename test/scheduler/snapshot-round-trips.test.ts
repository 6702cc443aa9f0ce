import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { EventEnvelope } from '@shared/bus/event';
import { createScheduleCache } from '@shared/cron';
import { newId } from '@shared/ids/ids';
import { createLogger } from '@shared/log/logger';
import { deploymentEvents, type DeploymentSnapshot } from '@shared/schema/deployment-events';
import { applyDeploymentSnapshot } from '../../services/scheduler/src/handlers/apply-deployment-snapshot';
import { createSchedulerMetrics } from '../../services/scheduler/src/metrics';
import { SchedulerFixture, type Worker } from '../support/scheduler/scheduler-fixture';
import { snapshot } from '../support/scheduler/snapshot';

/**
 * What applying a deployment event costs in statements, and that the cheap paths keep the
 * revision order: an unscheduled creation costs none, a scheduled creation one, an unscheduled
 * change of a deployment the scheduler never stored one read; later and earlier snapshots still
 * land as the revision order says. The handler runs on a pool whose statements are counted.
 */
const MINUTELY = { expression: '* * * * *', timezone: 'UTC' };

let fx: SchedulerFixture;
let counting: Worker;
let statements = 0;
let apply: (event: EventEnvelope<DeploymentSnapshot>) => Promise<void>;

beforeAll(async () => {
  fx = await SchedulerFixture.start({ start: '2026-07-01T10:00:00.000Z' });
  await fx.stopConsumer(); // the test applies events itself
  counting = await fx.startWorker('counter', { onStep: (step) => void (step === 'query' && (statements += 1)) });
  apply = applyDeploymentSnapshot({
    db: counting.handle.db,
    clock: fx.clock,
    logger: createLogger('error'),
    deployments: { call: () => Promise.reject(new Error('no fires here')) },
    metrics: createSchedulerMetrics(),
    schedules: createScheduleCache(),
    config: fx.config,
  });
});
afterAll(() => fx?.stop());

const envelope = (type: keyof typeof deploymentEvents, data: DeploymentSnapshot): EventEnvelope<DeploymentSnapshot> => ({
  id: newId('event'),
  type: deploymentEvents[type].subject,
  occurred_at: fx.clock.now().toISOString(),
  organization_id: data.organization_id,
  workspace_id: data.workspace_id,
  data,
});

/** Statements one event cost. */
async function cost(type: keyof typeof deploymentEvents, data: DeploymentSnapshot): Promise<number> {
  const before = statements;
  await apply(envelope(type, data));
  return statements - before;
}

test('events that cannot change a schedule cost no statement or one read; the revision order holds', async () => {
  // Created without a schedule: nothing to store, and no older snapshot can arrive.
  const plain = snapshot({ schedule: null });
  expect(await cost('created', plain)).toBe(0);
  expect(await fx.row(plain.deployment_id)).toBeUndefined();
  // Its later unscheduled changes: one read each, still nothing stored.
  expect(await cost('paused', { ...plain, status: 'paused', revision: 2 })).toBe(1);
  expect(await fx.row(plain.deployment_id)).toBeUndefined();
  // Given a schedule later: planned as the first stored snapshot; the late creation changes nothing.
  await cost('updated', { ...plain, status: 'active', schedule: MINUTELY, revision: 3 });
  expect(await fx.row(plain.deployment_id)).toMatchObject({ revision: 3, active: 1 });
  expect(await cost('created', plain)).toBe(0);
  expect(await fx.row(plain.deployment_id)).toMatchObject({ revision: 3, active: 1 });

  // Created with a schedule: one statement, and a redelivery leaves the row as it is.
  const scheduled = snapshot({ schedule: MINUTELY });
  expect(await cost('created', scheduled)).toBe(1);
  const row = await fx.row(scheduled.deployment_id);
  expect(row).toMatchObject({ revision: 1, active: 1 });
  fx.clock.advance(90_000);
  expect(await cost('created', scheduled)).toBe(1);
  expect(await fx.row(scheduled.deployment_id)).toEqual(row);

  // Unscheduled later: the stored row is deactivated (locked path), and the creation arriving
  // after that (reordered) is stale against it.
  await cost('updated', { ...scheduled, schedule: null, revision: 2 });
  expect(await fx.row(scheduled.deployment_id)).toMatchObject({ revision: 2, active: 0, next_fire_at: null });
  expect(await cost('created', scheduled)).toBe(1);
  expect(await fx.row(scheduled.deployment_id)).toMatchObject({ revision: 2, active: 0, next_fire_at: null });
});
