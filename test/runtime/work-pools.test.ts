/**
 * The two pools of work items through the real parts (runtime service, MariaDB, NATS, gateway,
 * the SDK): cloud items go only to the sandbox workers' claim (runtime.work.claim), fairly
 * between tenants and never twice; self-hosted polls never see them; and workers_polling counts
 * the workers that poll with an id. Items are queued with the runtime's own queueSessionWork,
 * as a session's drive queues them; nothing here waits on time: the clock is a ManualClock.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import Anthropic from '@anthropic-ai/sdk';
import { systemContext } from '@shared/bus/call-context';
import { workSubjects } from '@shared/bus/subjects/runtime';
import { loadSessionsTokenKey, openSessionsToken } from '@shared/crypto/sessions-token';
import { newId } from '@shared/ids/ids';
import { startServiceHost, type BusHost } from '@shared/service-host/service-host';
import type { Tenant } from '@shared/schema/tenant';
import type { Work, WorkPool } from '@shared/schema/work';
import { ManualClock } from '@shared/time/clock';
import { workItems } from '../../services/runtime/src/db/schema';
import { queueSessionWork } from '../../services/runtime/src/db/work-items';
import { loadSandboxWorkerConfig } from '../../services/sandbox-worker/src/config';
import { eventually } from '../support/eventually';
import { createEnvironment } from '../support/fixtures';
import { apiClient } from '../support/api';
import { Stack } from '../support/stack';

const START = new Date('2026-06-01T08:00:00.000Z');

let stack: Stack;
let clock: ManualClock;
/** A bus connection as the sandbox workers' identity: what calls runtime.work.claim. */
let sandbox: BusHost;

beforeAll(async () => {
  clock = new ManualClock(START);
  stack = await Stack.start({ clock, services: ['catalog', 'deployments', 'vaults', 'runtime'], env: { LOG_LEVEL: 'error' } });
  sandbox = await startServiceHost('sandbox-worker', loadSandboxWorkerConfig(stack.env('sandbox-worker')));
}, 60_000);
afterAll(async () => {
  await sandbox?.stop();
  await stack?.stop();
});
beforeEach(async () => {
  // Claims take any tenant's cloud item: each test starts from an empty queue.
  await stack.service('runtime').database.db.delete(workItems);
});

const at = (ms: number) => new Date(START.getTime() + ms);

/** Queues an item as a session's drive does, in the given pool; returns the session id it stands for. */
async function queue(tenant: Pick<Tenant, 'organization_id' | 'workspace_id'>, environmentId: string, pool: WorkPool, queuedAt: Date): Promise<string> {
  const sessionId = newId('session');
  await queueSessionWork(stack.service('runtime').database.db, tenant, environmentId, sessionId, queuedAt, async () => pool);
  return sessionId;
}

/** One sandbox worker's claim, not blocking: the item, or null when none is claimable. */
const claim = async (workerId = 'sandbox-test'): Promise<Work | null> =>
  (await sandbox.client.call(workSubjects.claim, systemContext(newId('request')), { worker_id: workerId, block_ms: 0 }))?.work ?? null;

/** A new tenant: its SDK client and a self-hosted environment of its own. */
async function selfHostedTenant() {
  const key = await stack.createKey();
  const sdk = new Anthropic({ baseURL: stack.url, apiKey: key.secret, maxRetries: 0 });
  const environment = await createEnvironment(apiClient(stack.url, key.secret), { config: { type: 'self_hosted' } });
  return { tenant: key.tenant, sdk, environment };
}

const sessionOf = (item: Work | null) => item?.data.id;

describe('runtime.work.claim: the sandbox workers take cloud items', () => {
  test('fair between tenants: one with many queued sessions does not starve another; each item comes acknowledged with a secret scoped to it', async () => {
    const flood = (await stack.createKey()).tenant;
    const small = (await stack.createKey()).tenant;
    const [floodEnvironment, smallEnvironment] = [newId('environment'), newId('environment')];
    const floods: string[] = [];
    for (let i = 0; i < 40; i++) floods.push(await queue(flood, floodEnvironment, 'cloud', at(i)));
    const smallSession = await queue(small, smallEnvironment, 'cloud', at(3600_000));

    // Nothing served yet: the oldest item first. Then the tenant holding none goes before the one holding one.
    const first = await claim();
    const second = await claim();
    const third = await claim();
    expect([sessionOf(first), sessionOf(second), sessionOf(third)]).toEqual([floods[0], smallSession, floods[1]]);

    expect(second).toMatchObject({ state: 'starting', environment_id: smallEnvironment, data: { type: 'session', id: smallSession } });
    expect(second!.acknowledged_at).toBe(START.toISOString());
    const { sessions_token } = JSON.parse(Buffer.from(second!.secret!, 'base64url').toString('utf8'));
    const claims = openSessionsToken(loadSessionsTokenKey(undefined, false), sessions_token, clock.now());
    expect(claims).toMatchObject({
      organization_id: small.organization_id,
      workspace_id: small.workspace_id,
      session_id: smallSession,
      work_id: second!.id,
      environment_id: smallEnvironment,
    });
    // The token reaches its own item through the gateway as the session's process uses it (its
    // heartbeat); retrieving the item takes an API key (SDK 1.x: it rejects the item's secret).
    const scoped = new Anthropic({ baseURL: stack.url, apiKey: null, authToken: sessions_token, maxRetries: 0 });
    expect((await scoped.beta.environments.work.heartbeat(second!.id, { environment_id: smallEnvironment })).state).toBe('active');
    const refused = await scoped.beta.environments.work.retrieve(second!.id, { environment_id: smallEnvironment }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(Anthropic.PermissionDeniedError);
  });

  test('concurrent claims never hand out one item twice', async () => {
    const tenants = [(await stack.createKey()).tenant, (await stack.createKey()).tenant];
    const queued = new Set<string>();
    for (let i = 0; i < 6; i++) queued.add(await queue(tenants[i % 2]!, newId('environment'), 'cloud', at(i)));
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => claim(`sandbox-${i}`)));
    const claimed = results.filter((r) => r !== null).map(sessionOf);
    expect(new Set(claimed)).toEqual(queued);
    expect(claimed).toHaveLength(6);
    expect(results.filter((r) => r === null)).toHaveLength(4);
  });

  test('an item whose sandbox worker went silent past its lease is claimed again, starting over', async () => {
    const tenant = (await stack.createKey()).tenant;
    const session = await queue(tenant, newId('environment'), 'cloud', clock.now());
    const taken = await claim('sandbox-dead');
    expect(sessionOf(taken)).toBe(session);
    expect(await claim()).toBeNull();
    clock.advance(91_000); // past the work lease (WORK_LEASE_TTL_SECONDS, 8 s) without a heartbeat
    const again = await claim('sandbox-next');
    expect(again).toMatchObject({ id: taken!.id, state: 'starting', latest_heartbeat_at: null, acknowledged_at: clock.now().toISOString() });
  });
});

describe('a stop its worker never finished', () => {
  test('an item left stopping by a worker that died is stopped once its lease lapses, and the session gets a new item', async () => {
    const { tenant, sdk, environment } = await selfHostedTenant();
    const session = await queue(tenant, environment.id, 'self_hosted', clock.now());
    const item = (await sdk.beta.environments.work.poll(environment.id))!;
    await sdk.beta.environments.work.ack(item.id, { environment_id: environment.id });
    await sdk.beta.environments.work.heartbeat(item.id, { environment_id: environment.id });
    // A graceful stop: the worker would hear it at its next heartbeat, but it dies first.
    await sdk.beta.environments.work.stop(item.id, { environment_id: environment.id, force: false });
    const retrieve = () => sdk.beta.environments.work.retrieve(item.id, { environment_id: environment.id });
    expect((await retrieve()).state).toBe('stopping');

    // Within the lease, the stopping item is still the session's: nothing new is queued.
    await queueSessionWork(stack.service('runtime').database.db, tenant, environment.id, session, clock.now(), async () => 'self_hosted');
    expect((await sdk.beta.environments.work.stats(environment.id)).depth).toBe(0);

    clock.advance(91_000); // past the work lease (WORK_LEASE_TTL_SECONDS, 8 s): the worker is gone
    await queueSessionWork(stack.service('runtime').database.db, tenant, environment.id, session, clock.now(), async () => 'self_hosted');
    expect(await retrieve()).toMatchObject({ state: 'stopped', stopped_at: clock.now().toISOString() });
    const next = (await sdk.beta.environments.work.poll(environment.id))!;
    expect(next.id).not.toBe(item.id);
    expect(next.data.id).toBe(session);
  });
});

describe("the runtime's cloud work gauge", () => {
  test('/metrics counts every tenant\'s cloud items queued and being served, and no self-hosted one (what the sandbox workers scale on)', async () => {
    const [one, two] = [(await stack.createKey()).tenant, (await stack.createKey()).tenant];
    for (const [tenant, i] of [[one, 0], [one, 1], [two, 2]] as const) await queue(tenant, newId('environment'), 'cloud', at(i));
    await queue(two, newId('environment'), 'self_hosted', at(3));
    expect(await claim()).not.toBeNull();
    const metrics = `http://127.0.0.1:${stack.service('runtime').healthPort()}/metrics`;
    // Counted every few seconds, not at each scrape: wait for a count taken after the claim.
    const counted = ['runtime_cloud_work_items{state="queued"} 2', 'runtime_cloud_work_items{state="serving"} 1'];
    const text = await eventually(
      'the gauge to count the items',
      async () => {
        const body = await (await fetch(metrics)).text();
        return counted.every((line) => body.includes(line)) ? body : undefined;
      },
      { timeoutMs: 15_000, intervalMs: 200 },
    );
    expect(text).toContain('# TYPE runtime_cloud_work_items gauge');
  });
});

describe('self-hosted polls and cloud items', () => {
  test('a poll never hands out a cloud item, even of the environment it polls, nor takes one back; a claim never takes a self-hosted one', async () => {
    const { tenant, sdk, environment } = await selfHostedTenant();
    const cloudSession = await queue(tenant, environment.id, 'cloud', clock.now());
    const selfHostedSession = await queue(tenant, environment.id, 'self_hosted', new Date(clock.now().getTime() + 1));
    // What the SDK's poll hands back when there is no item is empty, not null.
    const poll = async () => (await sdk.beta.environments.work.poll(environment.id, { reclaim_older_than_ms: 0 }))?.data?.id ?? null;

    expect(await poll()).toBe(selfHostedSession);
    expect(await poll()).toBeNull();
    expect(sessionOf(await claim())).toBe(cloudSession);

    // Both lapse: the poll's hold on the self-hosted item, the sandbox worker's lease on the cloud one.
    clock.advance(91_000);
    expect(await poll()).toBe(selfHostedSession);
    expect(await poll()).toBeNull();
    expect(sessionOf(await claim())).toBe(cloudSession);
    expect(await claim()).toBeNull();
  });
});

describe('workers_polling', () => {
  test('counts the workers that polled with an id (the SDK\'s Anthropic-Worker-ID) in the last 30 s; null while none sent one', async () => {
    const { sdk, environment } = await selfHostedTenant();
    const polling = async () => (await sdk.beta.environments.work.stats(environment.id)).workers_polling;

    expect(await polling()).toBeNull();
    await sdk.beta.environments.work.poll(environment.id);
    expect(await polling()).toBeNull();

    await sdk.beta.environments.work.poll(environment.id, { 'Anthropic-Worker-ID': 'worker-a' });
    expect(await polling()).toBe(1);
    await sdk.beta.environments.work.poll(environment.id, { 'Anthropic-Worker-ID': 'worker-b' });
    await sdk.beta.environments.work.poll(environment.id, { 'Anthropic-Worker-ID': 'worker-a' });
    expect(await polling()).toBe(2);

    // Another tenant's environment knows none of them.
    const other = await selfHostedTenant();
    expect((await other.sdk.beta.environments.work.stats(other.environment.id)).workers_polling).toBeNull();

    clock.advance(20_000);
    await sdk.beta.environments.work.poll(environment.id, { 'Anthropic-Worker-ID': 'worker-b' });
    clock.advance(11_000);
    // worker-a was last seen 31 s ago, worker-b 11 s ago.
    expect(await polling()).toBe(1);
    clock.advance(30_000);
    expect(await polling()).toBe(0);
    clock.advance(3600_000);
    expect(await polling()).toBeNull();
  });
});

describe('heartbeats as SDK 1.x documents them', () => {
  /** A self-hosted item polled, acknowledged and beaten once; the SDK client and what it beat last. */
  async function servedItem() {
    const { tenant, sdk, environment } = await selfHostedTenant();
    await queue(tenant, environment.id, 'self_hosted', clock.now());
    const item = (await sdk.beta.environments.work.poll(environment.id))!;
    const ids = { environment_id: environment.id };
    await sdk.beta.environments.work.ack(item.id, ids);
    const first = await sdk.beta.environments.work.heartbeat(item.id, ids);
    return { sdk, item, ids, last: first.last_heartbeat };
  }

  test("a stale expected_last_heartbeat is 412 heartbeat_precondition_failed with the server's lease (the SDK's own error class)", async () => {
    const { sdk, item, ids, last } = await servedItem();
    clock.advance(1_000);
    const stale = await sdk.beta.environments.work.heartbeat(item.id, { ...ids, expected_last_heartbeat: 'NO_HEARTBEAT' }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(stale).toBeInstanceOf(Anthropic.Beta.Environments.BetaHeartbeatPreconditionFailedError);
    const error = stale as InstanceType<typeof Anthropic.Beta.Environments.BetaHeartbeatPreconditionFailedError>;
    expect(error.status).toBe(412);
    expect(error.details).toEqual({
      error_code: 'heartbeat_precondition_failed',
      current_state: { last_heartbeat: last, lease_extended: false, state: 'active', ttl_seconds: 8 },
    });
  });

  test('once an item is stopping, the expected value is not compared: the beat says stop instead of a lost lease', async () => {
    const { sdk, item, ids } = await servedItem();
    await sdk.beta.environments.work.stop(item.id, { ...ids, force: false });
    const beat = await sdk.beta.environments.work.heartbeat(item.id, { ...ids, expected_last_heartbeat: 'NO_HEARTBEAT' });
    expect(beat).toMatchObject({ state: 'stopping', lease_extended: false });
  });
});

describe('what a claim hands the sandbox, and runtime.work.fail', () => {
  const claimed = async () => (await sandbox.client.call(workSubjects.claim, systemContext(newId('request')), { worker_id: 'sandbox-policy', block_ms: 0 }))!;

  test("the claim carries the environment's networking and packages as they are now", async () => {
    const key = await stack.createKey();
    const environment = await createEnvironment(apiClient(stack.url, key.secret), {
      config: { type: 'cloud', networking: { type: 'limited', allowed_hosts: ['api.example.com'], allow_package_managers: true }, packages: { npm: ['is-number'] } },
    });
    await queue(key.tenant, environment.id, 'cloud', at(0));
    const { sandbox: policy } = await claimed();
    expect(policy).toEqual({
      networking: { type: 'limited', allowed_hosts: ['api.example.com'], allow_package_managers: true, allow_mcp_servers: false },
      packages: { type: 'packages', apt: [], cargo: [], gem: [], go: [], npm: ['is-number'], pip: [] },
      // The queued item names no real session: no agent, no MCP servers.
      mcp_server_urls: [],
    });
  });

  test('an environment gone since the item was queued hands out the locked-down policy', async () => {
    const key = await stack.createKey();
    await queue(key.tenant, newId('environment'), 'cloud', at(0));
    expect((await claimed()).sandbox).toMatchObject({ networking: { type: 'limited', allowed_hosts: [] }, packages: { npm: [] } });
  });

  test('fail stops the item at once; failing it again answers it as it is; an unknown item is 404', async () => {
    const key = await stack.createKey();
    await queue(key.tenant, newId('environment'), 'cloud', at(0));
    const { work } = await claimed();
    const fail = (workId: string) => sandbox.client.call(workSubjects.fail, systemContext(newId('request')), { work_id: workId, message: 'npm package nope could not be installed' });
    const stopped = await fail(work.id);
    expect(stopped).toMatchObject({ id: work.id, state: 'stopped' });
    expect(await fail(work.id)).toEqual(stopped);
    expect(await fail(newId('work')).catch((err: { type?: string }) => err.type)).toBe('not_found_error');
  });
});
