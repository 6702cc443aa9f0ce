/**
 * GET /v1/deployment_runs and /v1/sessions: every filter, exact time bounds, keyset pages
 * newest first (ties broken by id), cursor binding, and tenant isolation.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { systemContext } from '@shared/bus/call-context';
import { deploymentSubjects } from '@shared/bus/subjects/deployments';
import { newId } from '@shared/ids/ids';
import { ManualClock } from '@shared/time/clock';
import { createDeployment, createVault, deploymentWorld, remove, useTwoTenantStack } from '../support/fixtures';
import { allPages } from '../support/pages';
import { expectError, expectOk } from '../support/expect';

const clock = new ManualClock('2026-07-01T00:00:00.000Z');
const t = useTwoTenantStack({ clock, services: ['catalog', 'deployments', 'vaults'] });
let scheduledDeployment: any;
let brokenDeployment: any;
/** Every run recorded, in creation order. */
const runs: any[] = [];

async function fireOnSchedule(deploymentId: string, scheduledAt: string) {
  const reply = await t.stack.service('deployments').client.call(deploymentSubjects.fire, systemContext(newId('request'), t.mine.tenant), {
    deployment_id: deploymentId,
    trigger: { type: 'schedule', scheduled_at: scheduledAt },
  });
  if (reply.outcome !== 'fired') throw new Error(`not fired: ${reply.reason}`);
  return reply.run;
}

beforeAll(async () => {
  const world = await deploymentWorld(t.api);
  scheduledDeployment = await createDeployment(t.api, world.body({ schedule: { type: 'cron', expression: '*/5 * * * *', timezone: 'UTC' } }));
  const vault = await createVault(t.api);
  brokenDeployment = await createDeployment(t.api, world.body({ name: 'broken', vault_ids: [vault.id] }));
  await remove(t.api, 'vault', vault.id);

  // 12 instants one second apart; at every third, three runs share the millisecond.
  for (let i = 0; i < 12; i++) {
    clock.advance(1_000);
    runs.push(expectOk(await t.api('POST', `/v1/deployments/${scheduledDeployment.id}/run`)));
    runs.push(await fireOnSchedule(scheduledDeployment.id, new Date(Date.parse('2026-07-01T00:05:00.000Z') + i * 300_000).toISOString()));
    if (i % 3 === 0) runs.push(expectOk(await t.api('POST', `/v1/deployments/${brokenDeployment.id}/run`)));
  }
});

/** Newest first: created_at descending, then id descending. */
const newestFirst = (list: any[]) =>
  [...list].sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1));
const ids = (list: any[]) => list.map((r) => r.id);

async function listRuns(query: Record<string, string>, client = t.api) {
  return expectOk(await client('GET', '/v1/deployment_runs', { query: { limit: '100', ...query } }));
}

/** Every item of every page of a list. */
const walk = async (path: string, query: Record<string, string>) => (await allPages(t.api, path, query)).flat();

describe('GET /v1/deployment_runs', () => {
  test('lists every run of the tenant newest first, ties broken by id', async () => {
    expect(runs).toHaveLength(12 * 2 + 4);
    const body = await listRuns({});
    expect(body.next_page).toBeNull();
    expect(ids(body.data)).toEqual(ids(newestFirst(runs)));
    expect(body.data.find((r: any) => r.id === runs[0].id)).toEqual(runs[0]);
  });

  test('filters: deployment_id, trigger_type, has_error, alone and combined', async () => {
    const expectRuns = async (query: Record<string, string>, keep: (r: any) => boolean) =>
      expect(ids((await listRuns(query)).data)).toEqual(ids(newestFirst(runs.filter(keep))));
    await expectRuns({ deployment_id: scheduledDeployment.id }, (r) => r.deployment_id === scheduledDeployment.id);
    await expectRuns({ trigger_type: 'manual' }, (r) => r.trigger_context.type === 'manual');
    await expectRuns({ trigger_type: 'schedule' }, (r) => r.trigger_context.type === 'schedule');
    await expectRuns({ has_error: 'true' }, (r) => r.error !== null);
    await expectRuns({ has_error: 'false' }, (r) => r.session_id !== null);
    await expectRuns({ deployment_id: scheduledDeployment.id, trigger_type: 'manual', has_error: 'false' }, (r) => r.deployment_id === scheduledDeployment.id && r.trigger_context.type === 'manual');
    await expectRuns({ deployment_id: brokenDeployment.id, has_error: 'false' }, () => false);
    expect((await listRuns({ deployment_id: 'depl_000000000000000000000000' })).data).toEqual([]);
    for (const r of (await listRuns({ has_error: 'true' })).data) {
      expect([r.session_id, r.error.type]).toEqual([null, 'vault_not_found_error']);
    }
  });

  test('created_at bounds are exact: gt and lt exclusive, gte and lte inclusive, sub-millisecond bounds rounded inward', async () => {
    const t3 = '2026-07-01T00:00:03.000Z';
    const t6 = '2026-07-01T00:00:06.000Z';
    const expectBetween = async (query: Record<string, string>, keep: (at: string) => boolean) =>
      expect(ids((await listRuns(query)).data)).toEqual(ids(newestFirst(runs.filter((r) => keep(r.created_at)))));
    await expectBetween({ 'created_at[gt]': t3 }, (at) => at > t3);
    await expectBetween({ 'created_at[gte]': t3 }, (at) => at >= t3);
    await expectBetween({ 'created_at[lt]': t6 }, (at) => at < t6);
    await expectBetween({ 'created_at[lte]': t6 }, (at) => at <= t6);
    await expectBetween({ 'created_at[gt]': t3, 'created_at[lte]': t6 }, (at) => at > t3 && at <= t6);
    await expectBetween({ 'created_at[gte]': '2026-07-01T00:00:02.9995Z' }, (at) => at >= t3);
    await expectBetween({ 'created_at[lt]': '2026-07-01T00:00:06.0005Z' }, (at) => at <= t6);
    await expectBetween({ 'created_at[gt]': '2026-07-01T02:00:02.5+02:00' }, (at) => at > '2026-07-01T00:00:02.500Z');
  });

  test('keyset pages: every run once, in order, whatever the page size', async () => {
    for (const limit of ['1', '3', '7']) {
      expect(ids(await walk('/v1/deployment_runs', { limit }))).toEqual(ids(newestFirst(runs)));
    }
    const filtered = await walk('/v1/deployment_runs', { limit: '2', trigger_type: 'manual', 'created_at[gte]': '2026-07-01T00:00:04.000Z' });
    expect(ids(filtered)).toEqual(ids(newestFirst(runs.filter((r) => r.trigger_context.type === 'manual' && r.created_at >= '2026-07-01T00:00:04.000Z'))));
  });

  test('a cursor only works with the filters and limit it was issued for, in its own tenant', async () => {
    const first = await listRuns({ limit: '2', trigger_type: 'manual' });
    const page = first.next_page as string;
    expect(page).toEqual(expect.any(String));
    expectError(await t.api('GET', '/v1/deployment_runs', { query: { limit: '2', trigger_type: 'schedule', page } }), 400, 'invalid_request_error', 'invalid page cursor');
    expectError(await t.api('GET', '/v1/deployment_runs', { query: { limit: '3', trigger_type: 'manual', page } }), 400, 'invalid_request_error', 'invalid page cursor');
    expectError(await t.api('GET', '/v1/sessions', { query: { limit: '2', page } }), 400, 'invalid_request_error', 'invalid page cursor');
    expectError(await t.other('GET', '/v1/deployment_runs', { query: { limit: '2', trigger_type: 'manual', page } }), 400, 'invalid_request_error', 'invalid page cursor');
    expectError(await t.api('GET', '/v1/deployment_runs', { query: { limit: '2', trigger_type: 'manual', page: page.slice(0, -2) + 'AA' } }), 400, 'invalid_request_error', 'invalid page cursor');
  });

  test('invalid filter values, unknown or repeated parameters: 400 naming the parameter', async () => {
    const bad: Array<[Record<string, string>, string]> = [
      [{ trigger_type: 'cron' }, 'trigger_type'],
      [{ has_error: 'yes' }, 'has_error'],
      [{ 'created_at[gt]': 'yesterday' }, 'created_at[gt]'],
      [{ 'created_at[lte]': '2026-02-30T00:00:00Z' }, 'created_at[lte]'],
      [{ limit: '0' }, 'limit'],
      [{ limit: '101' }, 'limit'],
      [{ status: 'paused' }, 'status'],
    ];
    for (const [query, name] of bad) expectError(await t.api('GET', '/v1/deployment_runs', { query }), 400, 'invalid_request_error', name);
    const url = new URL('/v1/deployment_runs?beta=true&has_error=true&has_error=false', t.stack.url);
    const repeated = await fetch(url, { headers: { 'x-api-key': (await t.stack.createKey()).secret, 'anthropic-version': '2023-06-01', 'anthropic-beta': 'managed-agents-2026-04-01' } });
    expect(repeated.status).toBe(400);
    expectError(await t.api('GET', '/v1/deployment_runs', { headers: { 'anthropic-beta': null } }), 400, 'invalid_request_error', 'anthropic-beta');
  });

  test('GET /v1/deployment_runs/{id}; another tenant sees neither the run nor the list', async () => {
    const run = runs[1];
    expect(expectOk(await t.api('GET', `/v1/deployment_runs/${run.id}`))).toEqual(run);
    expectError(await t.other('GET', `/v1/deployment_runs/${run.id}`), 404, 'not_found_error');
    expectError(await t.api('GET', '/v1/deployment_runs/drun_missing'), 404, 'not_found_error');
    expect((await listRuns({}, t.other)).data).toEqual([]);
    expect((await listRuns({ deployment_id: scheduledDeployment.id }, t.other)).data).toEqual([]);
  });
});

describe('GET /v1/sessions', () => {
  test('one session per successful run, newest first, filterable by deployment', async () => {
    const sessionIds = newestFirst(runs.filter((r) => r.session_id)).map((r) => r.session_id);
    const all = expectOk(await t.api('GET', '/v1/sessions', { query: { limit: '100' } }));
    expect(all.prev_page).toBeNull();
    expect(all.next_page).toBeNull();
    expect(all.data.map((s: any) => s.id).sort()).toEqual([...sessionIds].sort());
    expect(newestFirst(all.data).map((s: any) => s.id)).toEqual(all.data.map((s: any) => s.id));
    const paged = await walk('/v1/sessions', { limit: '5' });
    expect(paged.map((s) => s.id)).toEqual(all.data.map((s: any) => s.id));
    const byDeployment = expectOk(await t.api('GET', '/v1/sessions', { query: { deployment_id: scheduledDeployment.id, limit: '100' } }));
    expect(byDeployment.data).toHaveLength(sessionIds.length);
    expect(expectOk(await t.api('GET', '/v1/sessions', { query: { deployment_id: brokenDeployment.id } })).data).toEqual([]);
    const firstPage = expectOk(await t.api('GET', '/v1/sessions', { query: { limit: '5' } }));
    expect(firstPage).toEqual({ data: expect.any(Array), next_page: expect.any(String), prev_page: null });
  });

  test('GET /v1/sessions/{id}; tenant-scoped; unknown parameters refused', async () => {
    const run = runs[0];
    const session = expectOk(await t.api('GET', `/v1/sessions/${run.session_id}`));
    expect(session).toMatchObject({ type: 'session', id: run.session_id, deployment_id: scheduledDeployment.id, status: 'idle', created_at: run.created_at });
    expectError(await t.other('GET', `/v1/sessions/${run.session_id}`), 404, 'not_found_error');
    expect(expectOk(await t.other('GET', '/v1/sessions')).data).toEqual([]);
    expectError(await t.api('GET', '/v1/sessions', { query: { order: 'oldest' } }), 400, 'invalid_request_error', 'order');
    expectError(await t.api('GET', `/v1/sessions/${run.session_id}`, { query: { expand: '1' } }), 400, 'invalid_request_error', 'expand');
  });
});
