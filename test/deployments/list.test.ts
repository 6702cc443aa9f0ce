/**
 * GET /v1/deployments: keyset pagination newest first, filters, cursor binding, tenant
 * isolation. A manual clock gives every deployment a known creation time.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { ManualClock } from '@shared/time/clock';
import { apiClient, type ApiClient } from '../support/api';
import { expectError, expectOk } from '../support/expect';
import { createAgent, createDeployment, deploymentWorld, useDeploymentStack } from '../support/fixtures';
import { allPages } from '../support/pages';

const clock = new ManualClock('2026-05-01T10:00:00.000Z');
const t = useDeploymentStack({ clock });
let otherAgent: any;
/** Everything tenant A created, newest first (created_at desc, id desc). */
let expected: Array<{ id: string; created_at: string; agent: string }> = [];
let pausedId: string;
let archivedId: string;

/** Every deployment the walk yields, and how many pages it took. */
async function walk(call: ApiClient, query: Record<string, string>) {
  const pages = await allPages(call, '/v1/deployments', query);
  return { items: pages.flat(), pages: pages.length };
}

beforeAll(async () => {
  otherAgent = await createAgent(t.api);
  const made: typeof expected = [];
  // Eleven deployments one second apart, then three in the same millisecond (ties broken by id).
  for (let i = 0; i < 11; i++) {
    clock.advance(1000);
    const agent = i % 3 === 0 ? otherAgent.id : t.world.agent.id;
    const d = await createDeployment(t.api, t.world.body({ agent, name: `d${i}` }));
    made.push({ id: d.id, created_at: d.created_at, agent });
  }
  clock.advance(1000);
  for (let i = 0; i < 3; i++) {
    const d = await createDeployment(t.api, t.world.body({ name: `tie${i}` }));
    made.push({ id: d.id, created_at: d.created_at, agent: t.world.agent.id });
  }
  expected = made.sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1));

  // Pause one and archive another through their routes, the archive at a known instant.
  pausedId = expected[2].id;
  archivedId = expected[4].id;
  expectOk(await t.api('POST', `/v1/deployments/${pausedId}/pause`), 'pause');
  clock.set('2026-05-01T11:00:00.000Z');
  expectOk(await t.api('POST', `/v1/deployments/${archivedId}/archive`), 'archive');
});


const ids = (items: any[]) => items.map((d) => d.id);
const live = () => expected.filter((d) => d.id !== archivedId);

describe('pagination', () => {
  test('newest first across pages, no duplicates, none missing', async () => {
    const { items, pages } = await walk(t.api, { limit: '3' });
    expect(ids(items)).toEqual(ids(live()));
    expect(pages).toBe(Math.ceil(live().length / 3));
  });

  test('every page size walks the same order', async () => {
    for (const limit of [1, 2, 5, 13, 100]) {
      expect(ids((await walk(t.api, { limit: String(limit) })).items)).toEqual(ids(live()));
    }
  });

  test('the last page has next_page null', async () => {
    const res = await t.api('GET', '/v1/deployments', { query: { limit: '100' } });
    expect(res.body.next_page).toBeNull();
    expect(res.body.data).toHaveLength(live().length);
  });

  test('an item created while paging appears on no later page (keyset, not offset)', async () => {
    const first = await t.api('GET', '/v1/deployments', { query: { limit: '4' } });
    clock.advance(1000);
    const late = await createDeployment(t.api, t.world.body({ name: 'late' }));
    const rest = await walk(t.api, { limit: '4', page: first.body.next_page });
    const walked = [...ids(first.body.data), ...ids(rest.items)];
    expect(walked).not.toContain(late.id);
    expect(walked).toEqual(ids(live()));
    expected.unshift({ id: late.id, created_at: late.created_at, agent: t.world.agent.id });
  });

  test('listed deployments are complete resources with computed fields', async () => {
    const res = await t.api('GET', '/v1/deployments', { query: { limit: '100', include_archived: 'true' } });
    const paused = res.body.data.find((d: any) => d.id === pausedId);
    expect(paused.status).toBe('paused');
    expect(paused.paused_reason).toEqual({ type: 'manual' });
    const archived = res.body.data.find((d: any) => d.id === archivedId);
    expect(archived.archived_at).toBe('2026-05-01T11:00:00.000Z');
    expect(archived.status).toBe('active');
  });
});

describe('filters', () => {
  test('agent_id', async () => {
    const { items } = await walk(t.api, { agent_id: otherAgent.id, limit: '2' });
    expect(ids(items)).toEqual(ids(live().filter((d) => d.agent === otherAgent.id)));
    expect(items.length).toBeGreaterThan(0);
    expect((await t.api('GET', '/v1/deployments', { query: { agent_id: 'agent_000000000000000000000000' } })).body.data).toEqual([]);
  });

  test('status', async () => {
    const paused = await walk(t.api, { status: 'paused' });
    expect(ids(paused.items)).toEqual([pausedId]);
    const active = await walk(t.api, { status: 'active', limit: '4' });
    expect(ids(active.items)).toEqual(ids(live().filter((d) => d.id !== pausedId)));
  });

  test('include_archived', async () => {
    expect(ids((await walk(t.api, { include_archived: 'true', limit: '4' })).items)).toEqual(ids(expected));
    expect(ids((await walk(t.api, { include_archived: 'false', limit: '4' })).items)).toEqual(ids(live()));
  });

  test('created_at[gte] and created_at[lte] are inclusive', async () => {
    const sorted = live();
    const upper = sorted[3].created_at;
    const lower = sorted[8].created_at;
    const within = sorted.filter((d) => d.created_at >= lower && d.created_at <= upper);
    const res = await walk(t.api, { 'created_at[gte]': lower, 'created_at[lte]': upper, limit: '2' });
    expect(ids(res.items)).toEqual(ids(within));
    expect(ids(res.items)).toContain(sorted[3].id);
    expect(ids(res.items)).toContain(sorted[8].id);
    // Offsets are honoured: the same instant written in another zone selects the same rows.
    const shifted = new Date(lower).toISOString().replace('Z', '+00:00');
    expect(ids((await walk(t.api, { 'created_at[gte]': shifted, 'created_at[lte]': upper })).items)).toEqual(ids(within));
  });

  test('filters combine', async () => {
    const upper = live()[5].created_at;
    const res = await walk(t.api, { agent_id: t.world.agent.id, 'created_at[lte]': upper, status: 'active' });
    expect(ids(res.items)).toEqual(
      ids(live().filter((d) => d.agent === t.world.agent.id && d.created_at <= upper && d.id !== pausedId)),
    );
  });

  const invalid: Array<[string, Record<string, string>, string]> = [
    ['status with include_archived=true', { status: 'active', include_archived: 'true' }, 'include_archived'],
    ['unknown status', { status: 'archived' }, 'status:'],
    ['include_archived not a boolean', { include_archived: 'yes' }, 'include_archived:'],
    ['created_at[gte] not a timestamp', { 'created_at[gte]': 'yesterday' }, 'created_at[gte]:'],
    ['created_at[lte] without an offset', { 'created_at[lte]': '2026-05-01T10:00:00' }, 'created_at[lte]:'],
    ['created_at[gte] impossible date', { 'created_at[gte]': '2026-02-30T00:00:00Z' }, 'created_at[gte]:'],
    ['created_at[gt] is not a filter here', { 'created_at[gt]': '2026-05-01T10:00:00Z' }, 'created_at[gt]'],
    ['empty agent_id', { agent_id: '' }, 'agent_id:'],
    ['limit not a number', { limit: 'ten' }, 'limit:'],
    ['unknown parameter', { order: 'asc' }, 'order'],
  ];
  for (const [name, query, message] of invalid) {
    test(`${name}: 400`, async () => {
      expectError(await t.api('GET', '/v1/deployments', { query }), 400, 'invalid_request_error', message);
    });
  }
});

describe('cursors', () => {
  async function firstCursor(query: Record<string, string> = { limit: '2' }) {
    const res = await t.api('GET', '/v1/deployments', { query });
    expect(res.body.next_page).toBeString();
    return res.body.next_page as string;
  }

  test('an altered cursor: 400 invalid page cursor', async () => {
    const cursor = await firstCursor();
    const flipped = cursor.slice(0, 10) + (cursor[10] === 'A' ? 'B' : 'A') + cursor.slice(11);
    expectError(await t.api('GET', '/v1/deployments', { query: { limit: '2', page: flipped } }), 400, 'invalid_request_error', 'invalid page cursor');
    expectError(await t.api('GET', '/v1/deployments', { query: { limit: '2', page: 'not-a-cursor' } }), 400, 'invalid_request_error', 'invalid page cursor');
    expectError(await t.api('GET', '/v1/deployments', { query: { limit: '2', page: cursor.slice(0, -4) } }), 400, 'invalid_request_error', 'invalid page cursor');
  });

  test('a cursor reused with other filters or another limit: 400', async () => {
    const cursor = await firstCursor();
    expectError(await t.api('GET', '/v1/deployments', { query: { limit: '3', page: cursor } }), 400, 'invalid_request_error', 'invalid page cursor');
    expectError(await t.api('GET', '/v1/deployments', { query: { page: cursor } }), 400, 'invalid_request_error', 'invalid page cursor');
    expectError(await t.api('GET', '/v1/deployments', { query: { limit: '2', status: 'active', page: cursor } }), 400, 'invalid_request_error', 'invalid page cursor');
    expectError(await t.api('GET', '/v1/deployments', { query: { limit: '2', agent_id: t.world.agent.id, page: cursor } }), 400, 'invalid_request_error', 'invalid page cursor');
    expectError(await t.api('GET', '/v1/deployments', { query: { limit: '2', include_archived: 'true', page: cursor } }), 400, 'invalid_request_error', 'invalid page cursor');
    const filtered = await firstCursor({ limit: '2', agent_id: t.world.agent.id });
    expectError(await t.api('GET', '/v1/deployments', { query: { limit: '2', page: filtered } }), 400, 'invalid_request_error', 'invalid page cursor');
    // The same filters and limit: accepted.
    expect((await t.api('GET', '/v1/deployments', { query: { limit: '2', page: cursor } })).status).toBe(200);
  });

  test("a cursor from another tenant: 400, even with the same filters and limit", async () => {
    const cursor = await firstCursor();
    const other = apiClient(t.stack.url, (await t.stack.createKey()).secret);
    expectError(await other('GET', '/v1/deployments', { query: { limit: '2', page: cursor } }), 400, 'invalid_request_error', 'invalid page cursor');
  });

  test('a cursor from another endpoint: 400', async () => {
    const vaults = await t.api('POST', '/v1/vaults', { body: { display_name: 'v1' } });
    await t.api('POST', '/v1/vaults', { body: { display_name: 'v2' } });
    expect(vaults.status).toBe(200);
    const vaultPage = await t.api('GET', '/v1/vaults', { query: { limit: '1' } });
    const foreign = vaultPage.body.next_page;
    expect(foreign).toBeString();
    expectError(await t.api('GET', '/v1/deployments', { query: { limit: '1', page: foreign } }), 400, 'invalid_request_error', 'invalid page cursor');
  });
});

describe('tenant isolation', () => {
  test("tenant B never sees tenant A's deployments, whatever the filters", async () => {
    const other = apiClient(t.stack.url, (await t.stack.createKey()).secret);
    expect((await other('GET', '/v1/deployments')).body).toEqual({ data: [], next_page: null });
    expect((await other('GET', '/v1/deployments', { query: { agent_id: t.world.agent.id } })).body.data).toEqual([]);
    expect((await other('GET', '/v1/deployments', { query: { include_archived: 'true', limit: '100' } })).body.data).toEqual([]);
    const theirs = await deploymentWorld(other);
    const mine = await createDeployment(other, theirs.body());
    expect(ids((await other('GET', '/v1/deployments')).body.data)).toEqual([mine.id]);
    expect(ids((await walk(t.api, { include_archived: 'true' })).items)).not.toContain(mine.id);
  });

  test('same organization, other workspace: isolated too', async () => {
    const a = await t.stack.createKey({ org: 'org_shared', workspace: 'wrkspc_one' });
    const b = await t.stack.createKey({ org: 'org_shared', workspace: 'wrkspc_two' });
    const one = apiClient(t.stack.url, a.secret);
    const two = apiClient(t.stack.url, b.secret);
    const w = await deploymentWorld(one);
    await createDeployment(one, w.body());
    expect((await two('GET', '/v1/deployments')).body.data).toEqual([]);
    expect((await one('GET', '/v1/deployments')).body.data).toHaveLength(1);
  });
});
