/**
 * GET /v1/sessions with the SDK's `SessionListParams`: every filter alone and combined, both
 * orders across several pages, `prev_page` (the SDK's bidirectional cursor) in both
 * directions, cursor binding, invalid values, and the SDK's own auto-pagination.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { describeEachSdk } from '../support/sdk';
import { ManualClock } from '@shared/time/clock';
import { createAgent, createAgentVersion, createDeployment, createEnvironment, createMemoryStore, userMessage, useTwoTenantStack } from '../support/fixtures';
import { expectError, expectOk } from '../support/expect';

interface Made {
  id: string;
  created_at: string;
  deployment_id: string;
  agent_id: string;
  agent_version: number;
  stores: string[];
  archived: boolean;
}

type Query = Record<string, string | string[]>;

const clock = new ManualClock('2026-08-01T00:00:00.000Z');
const t = useTwoTenantStack({ clock, services: ['catalog', 'deployments', 'vaults'] });
/** Agent A has two versions (a deployment pinned to each), agent B one. */
let agentA: any;
let agentB: any;
let storeOne: any;
let storeTwo: any;
let pinnedToV1: any;
let onV2: any;
let onB: any;
/** Every session made, with what its filters look at. */
const made: Made[] = [];

beforeAll(async () => {

  const environment = await createEnvironment(t.api);
  agentA = await createAgent(t.api);
  await createAgentVersion(t.api, agentA);
  agentB = await createAgent(t.api);
  [storeOne, storeTwo] = [await createMemoryStore(t.api), await createMemoryStore(t.api)];
  const store = (s: any) => ({ type: 'memory_store', memory_store_id: s.id });
  const body = (overrides: Record<string, unknown>) => ({ name: 'sessions', environment_id: environment.id, initial_events: [userMessage()], ...overrides });
  pinnedToV1 = await createDeployment(t.api, body({ agent: { type: 'agent', id: agentA.id, version: 1 }, resources: [store(storeOne)] }));
  onV2 = await createDeployment(t.api, body({ agent: agentA.id, resources: [store(storeOne), store(storeTwo)] }));
  onB = await createDeployment(t.api, body({ agent: agentB.id }));
  const facts = new Map([
    [pinnedToV1.id, { agent_id: agentA.id, agent_version: 1, stores: [storeOne.id] }],
    [onV2.id, { agent_id: agentA.id, agent_version: 2, stores: [storeOne.id, storeTwo.id] }],
    [onB.id, { agent_id: agentB.id, agent_version: 1, stores: [] }],
  ]);

  // Six instants a second apart; at each, every deployment runs once (three sessions share the
  // millisecond, ordered by id), and at every other one the pinned deployment runs twice.
  for (let i = 0; i < 6; i++) {
    clock.advance(1_000);
    const fired = i % 2 === 0 ? [pinnedToV1, onV2, onB, pinnedToV1] : [pinnedToV1, onV2, onB];
    for (const d of fired) {
      const run = expectOk(await t.api('POST', `/v1/deployments/${d.id}/run`));
      made.push({ id: run.session_id, created_at: run.created_at, deployment_id: d.id, ...facts.get(d.id)!, archived: false });
    }
  }
  // Nothing archives sessions yet; one is archived underneath to show the filter is honest.
  const archived = made.find((s) => s.deployment_id === onV2.id && s.created_at === '2026-08-01T00:00:03.000Z')!;
  archived.archived = true;
  await t.stack.service('deployments').database.pool.query('UPDATE sessions SET archived_at = ? WHERE id = ?', [new Date('2026-08-02T00:00:00.000Z'), archived.id]);
});

const newestFirst = (a: { created_at: string; id: string }, b: { created_at: string; id: string }) =>
  a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1;
const ids = (list: Array<{ id: string }>) => list.map((s) => s.id);
/** The sessions a filter should return, in the list's order. */
function expected(keep: (s: Made) => boolean, order: 'asc' | 'desc' = 'desc', includeArchived = false): string[] {
  const sorted = made.filter((s) => (includeArchived || !s.archived) && keep(s)).sort(newestFirst);
  return ids(order === 'desc' ? sorted : sorted.reverse());
}

/** GET /v1/sessions; an array value repeats the parameter the SDK's way (`name[]=a&name[]=b`). */
function list(query: Query, client = t.api) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value)) for (const v of value) search.append(`${name}[]`, v);
    else search.append(name, value);
  }
  return client('GET', `/v1/sessions?${search}`);
}
const page = async (query: Query) => expectOk(await list(query));

/** One page of at most 100 in the query's order is exactly the sessions `keep` selects. */
async function expectSessions(query: Query, keep: (s: Made) => boolean, includeArchived = false) {
  const order = query.order === 'asc' ? 'asc' : 'desc';
  const got = ids((await page({ limit: '100', ...query })).data);
  expect({ query, ids: got }).toEqual({ query, ids: expected(keep, order, includeArchived) });
}

/** Every page, following next_page from the first. */
async function pagesOf(query: Query) {
  const pages: any[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < 100; n++) {
    const body = await page({ ...query, ...(cursor ? { page: cursor } : {}) });
    pages.push(body);
    if (!body.next_page) return pages;
    cursor = body.next_page;
  }
  throw new Error('pagination did not end');
}

describe('filters', () => {
  test('each filter alone', async () => {

    expect(made).toHaveLength(21);
    await expectSessions({}, () => true);
    await expectSessions({ include_archived: 'false' }, () => true);
    await expectSessions({ include_archived: 'true' }, () => true, true);
    await expectSessions({ deployment_id: onB.id }, (s) => s.deployment_id === onB.id);
    await expectSessions({ agent_id: agentA.id }, (s) => s.agent_id === agentA.id);
    await expectSessions({ agent_id: agentA.id, agent_version: '1' }, (s) => s.agent_id === agentA.id && s.agent_version === 1);
    await expectSessions({ agent_id: agentA.id, agent_version: '2' }, (s) => s.deployment_id === onV2.id);
    await expectSessions({ agent_id: agentA.id, agent_version: '3' }, () => false);
    await expectSessions({ agent_id: 'agent_000000000000000000000000' }, () => false);
    await expectSessions({ memory_store_id: storeOne.id }, (s) => s.stores.includes(storeOne.id));
    await expectSessions({ memory_store_id: storeTwo.id }, (s) => s.stores.includes(storeTwo.id));
    await expectSessions({ memory_store_id: 'memstore_000000000000000000000000' }, () => false);
    await expectSessions({ statuses: ['idle'] }, () => true);
    await expectSessions({ statuses: ['running'] }, () => false);
    await expectSessions({ statuses: ['running', 'idle', 'idle'] }, () => true);
    await expectSessions({ statuses: ['rescheduling', 'terminated'] }, () => false);
    const t2 = '2026-08-01T00:00:02.000Z';
    const t5 = '2026-08-01T00:00:05.000Z';
    await expectSessions({ 'created_at[gt]': t2 }, (s) => s.created_at > t2);
    await expectSessions({ 'created_at[gte]': t2 }, (s) => s.created_at >= t2);
    await expectSessions({ 'created_at[lt]': t5 }, (s) => s.created_at < t5);
    await expectSessions({ 'created_at[lte]': t5 }, (s) => s.created_at <= t5);
    await expectSessions({ 'created_at[gte]': '2026-08-01T00:00:01.9995Z' }, (s) => s.created_at >= t2);
  });

  test('the SDK documentation\'s spelling of statuses, the parameter repeated without brackets, works too', async () => {
    const repeated = expectOk(await t.api('GET', '/v1/sessions?statuses=idle&statuses=running&limit=100'));
    expect(ids(repeated.data)).toEqual(expected(() => true));
    const running = expectOk(await t.api('GET', '/v1/sessions?statuses=running'));
    expect(running.data).toEqual([]);
  });

  test('combined filters', async () => {
    const t3 = '2026-08-01T00:00:03.000Z';
    await expectSessions({ agent_id: agentA.id, memory_store_id: storeTwo.id, statuses: ['idle'] }, (s) => s.deployment_id === onV2.id);
    await expectSessions({ memory_store_id: storeOne.id, agent_id: agentA.id, agent_version: '1', 'created_at[gte]': t3 }, (s) => s.deployment_id === pinnedToV1.id && s.created_at >= t3);
    await expectSessions({ memory_store_id: storeOne.id, include_archived: 'true', 'created_at[lte]': t3 }, (s) => s.stores.includes(storeOne.id) && s.created_at <= t3, true);
    // An archived session is listed with the status it is shown with, `terminated` (SDK 1.10.0), whatever its log's last status.
    await expectSessions({ deployment_id: onV2.id, include_archived: 'true', statuses: ['idle', 'running'] }, (s) => s.deployment_id === onV2.id && !s.archived, true);
    await expectSessions({ deployment_id: onV2.id, include_archived: 'true', statuses: ['terminated'] }, (s) => s.deployment_id === onV2.id && s.archived, true);
    await expectSessions({ deployment_id: onV2.id, include_archived: 'true', statuses: ['idle', 'terminated'] }, (s) => s.deployment_id === onV2.id, true);
    await expectSessions({ deployment_id: onB.id, agent_id: agentA.id }, () => false);
    await expectSessions({ deployment_id: onB.id, memory_store_id: storeOne.id }, () => false);
    await expectSessions({ agent_id: agentB.id, statuses: ['running'] }, () => false);
    await expectSessions({ 'created_at[gt]': t3, 'created_at[lt]': '2026-08-01T00:00:05.000Z', order: 'asc' }, (s) => s.created_at === '2026-08-01T00:00:04.000Z');
  });

  test('another tenant sees none of them, whatever the filter', async () => {
    for (const query of [{}, { memory_store_id: storeOne.id }, { agent_id: agentA.id }, { deployment_id: onB.id, include_archived: 'true' }]) {
      expect((await page(query as Query)).data.length).toBeGreaterThan(0);
      expect(expectOk(await list(query as Query, t.other)).data).toEqual([]);
    }
  });
});

describe('order and paging', () => {
  /** Three query shapes, each served differently (tenant index, memory store table, agent index); functions, as fixtures exist only once beforeAll ran. */
  const shapes: Array<[string, () => Query, (s: Made) => boolean]> = [
    ['every session', () => ({}), () => true],
    ['by memory store', () => ({ memory_store_id: storeOne.id }), (s) => s.stores.includes(storeOne.id)],
    ['by agent and status', () => ({ agent_id: agentA.id, statuses: ['idle'] }), (s) => s.agent_id === agentA.id],
  ];

  test('asc pages oldest first, desc newest first, every session once whatever the page size', async () => {
    for (const [name, query, keep] of shapes) {
      for (const order of ['asc', 'desc'] as const) {
        for (const limit of ['1', '2', '5']) {
          const pages = await pagesOf({ ...query(), order, limit });
          const seen = pages.flatMap((p) => ids(p.data));
          expect({ name, order, limit, seen }).toEqual({ name, order, limit, seen: expected(keep, order) });
          expect(pages.slice(0, -1).every((p) => p.data.length === Number(limit))).toBe(true);
        }
      }
    }
    expect(ids((await page({ limit: '100' })).data)).toEqual(ids((await page({ limit: '100', order: 'desc' })).data));
  });

  test('prev_page returns the page before, in the same order, back to the first (whose prev_page is null)', async () => {
    for (const [name, query] of shapes) {
      for (const order of ['asc', 'desc'] as const) {
        const q = { ...query(), order, limit: '4' };
        const pages = await pagesOf(q);
        expect(pages.length).toBeGreaterThan(2);
        expect(pages[0].prev_page).toBeNull();
        for (let j = 1; j < pages.length; j++) {
          expect(pages[j].prev_page).toEqual(expect.any(String));
          const back = await page({ ...q, page: pages[j].prev_page });
          expect({ name, order, j, ids: ids(back.data) }).toEqual({ name, order, j, ids: ids(pages[j - 1].data) });
          expect({ name, order, j, first: back.prev_page === null }).toEqual({ name, order, j, first: j === 1 });
          // And forward again from the page reached backwards.
          const forward = await page({ ...q, page: back.next_page });
          expect(ids(forward.data)).toEqual(ids(pages[j].data));
        }
        // All the way back from the last page by prev_page alone.
        const backwards: string[][] = [];
        let cursor = pages[pages.length - 1].prev_page;
        while (cursor) {
          const body = await page({ ...q, page: cursor });
          backwards.push(ids(body.data));
          cursor = body.prev_page;
        }
        expect(backwards).toEqual(pages.slice(0, -1).map((p) => ids(p.data)).reverse());
      }
    }
  });

  test('next then prev returns the same first page', async () => {
    const first = await page({ limit: '5' });
    const second = await page({ limit: '5', page: first.next_page });
    const again = await page({ limit: '5', page: second.prev_page });
    expect(again.data).toEqual(first.data);
    expect(again.prev_page).toBeNull();
    expect(again.next_page).toEqual(expect.any(String));
  });
});

describe('cursors and validation', () => {
  test('a cursor, next or prev, only works with the filters, order and limit it was issued for', async () => {
    const query = { agent_id: agentA.id, statuses: ['idle', 'running'], order: 'asc', limit: '2' } as Query;
    const second = await page({ ...query, page: (await page(query)).next_page });
    const invalid = async (q: Query, client = t.api) => expectError(await list(q, client), 400, 'invalid_request_error', 'invalid page cursor');
    for (const cursor of [second.next_page, second.prev_page]) {
      await invalid({ ...query, order: 'desc', page: cursor });
      await invalid({ ...query, statuses: ['idle'], page: cursor });
      await invalid({ ...query, limit: '3', page: cursor });
      await invalid({ ...query, agent_version: '1', page: cursor });
      await invalid({ ...query, include_archived: 'true', page: cursor });
      await invalid({ agent_id: agentA.id, statuses: ['idle', 'running'], limit: '2', page: cursor });
      await invalid({ ...query, page: cursor }, t.other);
      // One character in the middle changed: always a different byte (the last characters of a
      // base64url string may carry unused bits, and 'AA' may be what they already were).
      const middle = cursor.length >> 1;
      await invalid({ ...query, page: `${cursor.slice(0, middle)}${cursor[middle] === 'A' ? 'B' : 'A'}${cursor.slice(middle + 1)}` });
      expectError(await t.api('GET', '/v1/deployment_runs', { query: { limit: '2', page: cursor } }), 400, 'invalid_request_error', 'invalid page cursor');
    }
    // The same set of statuses in another spelling is the same filter.
    const reordered = await page({ ...query, statuses: ['running', 'idle', 'idle'], page: second.next_page });
    expect(reordered.data.length).toBeGreaterThan(0);
    const runs = expectOk(await t.api('GET', '/v1/deployment_runs', { query: { limit: '2' } }));
    await invalid({ limit: '2', page: runs.next_page });
  });

  test('invalid values, unknown or repeated parameters: 400 naming the parameter', async () => {
    const bad: Array<[string, string]> = [
      ['order=oldest', 'order'],
      ['statuses[]=sleeping', 'statuses[]'],
      ['statuses[]=idle&statuses[]=', 'statuses[]'],
      ['statuses=IDLE', 'statuses'],
      ['agent_version=2', 'agent_version'],
      ['agent_id=agent_x&agent_version=zero', 'agent_version'],
      ['agent_id=agent_x&agent_version=0', 'agent_version'],
      ['agent_id=', 'agent_id'],
      ['memory_store_id=', 'memory_store_id'],
      ['include_archived=yes', 'include_archived'],
      ['created_at[gt]=yesterday', 'created_at[gt]'],
      ['created_at[lte]=2026-02-30T00:00:00Z', 'created_at[lte]'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['statuses[0]=idle', 'statuses[0]'],
      ['status=idle', 'status'],
      ['order=asc&order=desc', 'order'],
      ['agent_id=a&agent_id=b', 'agent_id'],
      ['page=not-a-cursor', 'invalid page cursor'],
    ];
    for (const [search, name] of bad) {
      const res = await t.api('GET', `/v1/sessions?${search}`);
      expect({ search, status: res.status }).toEqual({ search, status: 400 });
      expectError(res, 400, 'invalid_request_error', name);
    }
  });
});

describeEachSdk('sessions list through the SDK', (sdk) => {
  test('the SDK: filters, asc order and auto-pagination over the bidirectional cursor', async () => {
    let requests = 0;
    const countingFetch = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      requests++;
      return fetch(input, init);
    }) as typeof fetch;
    const client = new sdk.Anthropic({ apiKey: t.mine.secret, baseURL: t.stack.url, maxRetries: 0, fetch: countingFetch });
    const params = { agent_id: agentA.id, statuses: ['idle' as const], order: 'asc' as const, limit: 2 };
    const want = expected((s) => s.agent_id === agentA.id, 'asc');

    const seen: string[] = [];
    for await (const session of client.beta.sessions.list(params)) seen.push(session.id);
    expect(seen).toEqual(want);
    expect(requests).toBe(Math.ceil(want.length / 2));

    const first = await client.beta.sessions.list(params);
    expect(first.prev_page).toBeNull();
    const second = await first.getNextPage();
    expect(ids(second.data)).toEqual(want.slice(2, 4));
    const back = await client.beta.sessions.list({ ...params, page: second.prev_page! });
    expect(ids(back.data)).toEqual(ids(first.data));
    expect(back.prev_page).toBeNull();
    expect(await client.beta.sessions.list({ ...params, order: 'desc', page: second.prev_page! }).catch((e) => e)).toBeInstanceOf(sdk.Anthropic.BadRequestError);
  });
});
