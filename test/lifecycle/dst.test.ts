/**
 * Literal wall-clock matching end to end in America/New_York: deployments created over HTTP,
 * the real scheduler engine (with its jitter) firing through the real fire path, runs read back
 * over HTTP. 02:30 does not exist on 2026-03-08 (02:00 -> 03:00) and never fires that day;
 * 01:30 happens twice on 2026-11-01 (02:00 -> 01:00) and fires twice.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createDeployment, deploymentWorld, type DeploymentWorld } from '../support/fixtures';
import { expectOk } from '../support/expect';
import { LifecycleStack, type Tenant$ } from '../support/lifecycle-stack';

let world: LifecycleStack;
let me: Tenant$;
let base: DeploymentWorld;

beforeAll(async () => {
  world = await LifecycleStack.start({ start: '2026-03-07T00:00:00.000Z' });
  await world.startWorker();
  me = await world.tenant();
  base = await deploymentWorld(me.api);
});
afterAll(() => world?.stop());

const STEP_MS = 5 * 60_000;

async function createPair() {
  const cron = (expression: string) => ({ schedule: { type: 'cron', expression, timezone: 'America/New_York' } });
  const twoThirty = await createDeployment(me.api, base.body({ name: '02:30', ...cron('30 2 * * *') }));
  const oneThirty = await createDeployment(me.api, base.body({ name: '01:30', ...cron('30 1 * * *') }));
  await world.eventsSettled();
  return { twoThirty, oneThirty };
}

async function scheduledRuns(deploymentId: string): Promise<string[]> {
  const body = expectOk(await me.api('GET', '/v1/deployment_runs', { query: { deployment_id: deploymentId, limit: '100' } }));
  for (const run of body.data) expect([run.trigger_context.type, run.error, typeof run.session_id]).toEqual(['schedule', null, 'string']);
  return body.data.map((r: any) => r.trigger_context.scheduled_at).sort();
}

describe('DST in America/New_York, through the scheduler and the fire path', () => {
  test('spring forward: no 02:30 on 2026-03-08; 01:30 still once a day', async () => {
    const { twoThirty, oneThirty } = await createPair();
    await world.runUntil('2026-03-10T00:00:00.000Z', STEP_MS);
    expect(await scheduledRuns(twoThirty.id)).toEqual([
      '2026-03-07T07:30:00.000Z', // 02:30 EST
      '2026-03-09T06:30:00.000Z', // 02:30 EDT; nothing on the 8th
    ]);
    expect(await scheduledRuns(oneThirty.id)).toEqual([
      '2026-03-07T06:30:00.000Z',
      '2026-03-08T06:30:00.000Z', // 01:30 EST, half an hour before the jump
      '2026-03-09T05:30:00.000Z', // 01:30 EDT
    ]);
    const last = expectOk(await me.api('GET', `/v1/deployments/${oneThirty.id}`)).schedule.last_run_at;
    expect(Date.parse(last)).toBeGreaterThanOrEqual(Date.parse('2026-03-09T05:30:00.000Z'));
    expect(Date.parse(last)).toBeLessThan(Date.parse('2026-03-09T05:30:00.000Z') + 60_000 + STEP_MS);
    for (const d of [twoThirty, oneThirty]) expectOk(await me.api('POST', `/v1/deployments/${d.id}/archive`));
    await world.eventsSettled();
  });

  test('fall back: 01:30 fires twice on 2026-11-01, an hour apart; 02:30 once', async () => {
    world.clock.set('2026-10-31T00:00:00.000Z');
    const { twoThirty, oneThirty } = await createPair();
    await world.runUntil('2026-11-03T00:00:00.000Z', STEP_MS);
    expect(await scheduledRuns(oneThirty.id)).toEqual([
      '2026-10-31T05:30:00.000Z',
      '2026-11-01T05:30:00.000Z', // 01:30 EDT
      '2026-11-01T06:30:00.000Z', // 01:30 EST, the same wall-clock time an hour later
      '2026-11-02T06:30:00.000Z',
    ]);
    expect(await scheduledRuns(twoThirty.id)).toEqual([
      '2026-10-31T06:30:00.000Z',
      '2026-11-01T07:30:00.000Z',
      '2026-11-02T07:30:00.000Z',
    ]);
  });
});
