/**
 * The fire path for real: the scheduler's due-schedule rounds (run by hand on a ManualClock) fire
 * through the bus into the deployments service, which re-checks references, creates sessions,
 * records runs, announces sessions on JetStream and auto-pauses broken deployments.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { ApiError } from '@shared/errors/api-error';
import type { ApiClient } from '../support/api';
import {
  archive,
  createAgent,
  createDeployment,
  createEnvironment,
  createMemoryStore,
  createVault,
  deploymentWorld,
  remove,
  repository,
  uploadFile,
  userMessage,
  type DeploymentWorld,
} from '../support/fixtures';
import { expectError, expectOk } from '../support/expect';
import { referenceCacheCaughtUp } from '../support/reference-cache';
import { LifecycleStack, type Tenant$, type Worker } from '../support/lifecycle-stack';

const EVERY_5_MINUTES = { type: 'cron', expression: '*/5 * * * *', timezone: 'UTC' };

let world: LifecycleStack;
let worker: Worker;
let me: Tenant$;
let api: ApiClient;
let base: DeploymentWorld;

beforeAll(async () => {
  // No jitter: an occurrence fires exactly at its listed time, which keeps the arithmetic plain.
  world = await LifecycleStack.start({ start: '2026-06-01T08:00:00.000Z', env: { JITTER_MAX_MS: '0' } });
  worker = await world.startWorker();
  me = await world.tenant();
  api = me.api;
  base = await deploymentWorld(api);
});
afterAll(() => world?.stop());

const now = () => world.clock.now();
const at = (iso: string) => world.runUntil(iso, 60_000);
/** The next multiple of five minutes after now, as ISO. */
const nextFive = () => new Date(Math.floor(now().getTime() / 300_000) * 300_000 + 300_000).toISOString();

async function scheduled(overrides: Record<string, unknown> = {}) {
  const d = await createDeployment(api, base.body({ schedule: EVERY_5_MINUTES, ...overrides }));
  return d;
}

async function runsOf(deploymentId: string, query: Record<string, string> = {}) {
  return expectOk(await api('GET', '/v1/deployment_runs', { query: { deployment_id: deploymentId, limit: '100', ...query } })).data;
}

const get = async (id: string) => expectOk(await api('GET', `/v1/deployments/${id}`));

describe('a scheduled fire', () => {
  test('creates the session and its run in one go, sets last_run_at, and announces sessions.created', async () => {
    const file = await uploadFile(api);
    const vault = await createVault(api);
    const budget = { type: 'limit', max_list_cost: { currency: 'USD', amount: '700' } };
    const d = await scheduled({
      vault_ids: [vault.id],
      resources: [{ type: 'file', file_id: file.id }, repository()],
      metadata: { team: 'ops' },
      budget,
    });
    await world.eventsSettled();
    const occurrence = nextFive();
    await at(occurrence);

    const [run] = await runsOf(d.id);
    expect(run).toEqual({
      type: 'deployment_run',
      id: expect.stringMatching(/^drun_/),
      deployment_id: d.id,
      agent: d.agent,
      trigger_context: { type: 'schedule', scheduled_at: occurrence },
      session_id: expect.stringMatching(/^sesn_/),
      error: null,
      created_at: occurrence,
    });
    expect(expectOk(await api('GET', `/v1/deployment_runs/${run.id}`))).toEqual(run);

    const session = expectOk(await api('GET', `/v1/sessions/${run.session_id}`));
    // The agent version's full definition (SDK BetaManagedAgentsSessionAgent): the agent without its resource fields.
    const { metadata: _m, created_at: _c, updated_at: _u, archived_at: _a, ...agentVersion } = expectOk(
      await api('GET', `/v1/agents/${d.agent.id}`, { query: { version: String(d.agent.version) } }),
    );
    expect(session).toEqual({
      type: 'session',
      id: run.session_id,
      deployment_id: d.id,
      agent: agentVersion,
      environment_id: d.environment_id,
      vault_ids: [vault.id],
      // Each resource with an id of its own, created with the session.
      resources: d.resources.map((r: object) => ({ ...r, id: expect.stringMatching(/^sesrsc_/), created_at: occurrence, updated_at: occurrence })),
      budget,
      initial_events: d.initial_events,
      status: 'idle',
      metadata: { team: 'ops' },
      title: null,
      outcome_evaluations: [],
      stats: { active_seconds: 0 },
      usage: {
        input_tokens: 0,
        output_tokens: 0,
        cache_read_input_tokens: 0,
        cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 },
        active_seconds: 0,
      },
      created_at: occurrence,
      updated_at: occurrence,
      archived_at: null,
    });

    const after = await get(d.id);
    expect(after.schedule.last_run_at).toBe(occurrence);
    expect(after.updated_at).toBe(d.updated_at);

    // A later budget change never reaches a session already created.
    expectOk(await api('POST', `/v1/deployments/${d.id}`, { body: { budget: null } }));
    expect(expectOk(await api('GET', `/v1/sessions/${run.session_id}`)).budget).toEqual(budget);

    const announced = (await world.streamEvents('sessions')).filter((e) => e.data.data.session_id === run.session_id);
    expect(announced).toHaveLength(1);
    expect(announced[0]!.subject).toEndWith('sessions.created');
    expect(announced[0]!.data).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'sessions.created',
      occurred_at: occurrence,
      organization_id: me.tenant.organization_id,
      workspace_id: me.tenant.workspace_id,
      // Ids and references only: the session's content is read by id (docs/decisions.md, events).
      data: {
        session_id: run.session_id,
        deployment_id: d.id,
        deployment_run_id: run.id,
        organization_id: me.tenant.organization_id,
        workspace_id: me.tenant.workspace_id,
        agent: d.agent,
        environment_id: d.environment_id,
        vault_ids: [vault.id],
        // How many events its log begins with (a runtime drives an empty one only once sent to).
        initial_events: d.initial_events.length,
      },
    });
    expect(JSON.stringify(announced)).not.toContain('ghp_');
  });

  test('manual runs never move last_run_at; failed scheduled runs do not either; archive keeps it', async () => {
    const vault = await createVault(api);
    const d = await scheduled({ vault_ids: [vault.id] });
    await world.eventsSettled();
    const first = nextFive();
    await at(first);
    expect((await get(d.id)).schedule.last_run_at).toBe(first);
    world.clock.advance(60_000);
    expectOk(await api('POST', `/v1/deployments/${d.id}/run`));
    expect((await get(d.id)).schedule.last_run_at).toBe(first);

    await remove(api, 'vault', vault.id);
    await at(nextFive());
    const failed = await get(d.id);
    expect(failed.schedule.last_run_at).toBe(first);
    expect(failed.status).toBe('paused');

    const archived = expectOk(await api('POST', `/v1/deployments/${d.id}/archive`));
    expect(archived.schedule).toMatchObject({ last_run_at: first, upcoming_runs_at: [] });
    expect(archived.status).toBe('active');
  });
});

describe('auto-pause', () => {
  /**
   * Each way the product can break a deployment's reference, and the run error it must cause:
   * `make` creates the referenced thing, `uses` puts it into the deployment, `breakIt` breaks
   * it, and `fix` is the update that takes it out again.
   */
  interface Breakage {
    kind: string;
    error: string;
    make: () => Promise<{ id: string }>;
    uses: (id: string) => Record<string, unknown>;
    breakIt: (id: string) => Promise<void>;
    fix: () => Record<string, unknown>;
  }
  const fileIn = (file_id: string) => ({ type: 'file', file_id });
  /** What makes and uses each kind of reference that can break both ways (archived and deleted). */
  const vault = { make: () => createVault(api), uses: (id: string) => ({ vault_ids: [id] }) };
  const environment = {
    make: () => createEnvironment(api),
    uses: (id: string) => ({ environment_id: id }),
    fix: () => ({ environment_id: base.environment.id }),
  };
  const memoryStore = { make: () => createMemoryStore(api), uses: (memory_store_id: string) => ({ resources: [{ type: 'memory_store', memory_store_id }] }) };
  const breakages: Breakage[] = [
    { kind: 'deleted vault', error: 'vault_not_found_error', ...vault, breakIt: (id) => remove(api, 'vault', id), fix: () => ({ vault_ids: [] }) },
    { kind: 'archived vault', error: 'vault_archived_error', ...vault, breakIt: (id) => archive(api, 'vault', id), fix: () => ({ vault_ids: null }) },
    { kind: 'archived agent', error: 'agent_archived_error', make: () => createAgent(api), uses: (id) => ({ agent: id }), breakIt: (id) => archive(api, 'agent', id), fix: () => ({ agent: base.agent.id }) },
    { kind: 'archived environment', error: 'environment_archived_error', ...environment, breakIt: (id) => archive(api, 'environment', id) },
    { kind: 'deleted environment', error: 'environment_not_found_error', ...environment, breakIt: (id) => remove(api, 'environment', id) },
    { kind: 'deleted file resource', error: 'file_not_found_error', make: () => uploadFile(api), uses: (id) => ({ resources: [fileIn(id)] }), breakIt: (id) => remove(api, 'file', id), fix: () => ({ resources: [] }) },
    {
      kind: 'deleted rubric file',
      error: 'file_not_found_error',
      make: () => uploadFile(api),
      uses: (id) => ({ initial_events: [userMessage(), { type: 'user.define_outcome', description: 'Grade it', rubric: fileIn(id) }] }),
      breakIt: (id) => remove(api, 'file', id),
      fix: () => ({ initial_events: [userMessage()] }),
    },
    {
      kind: 'deleted file of an image block',
      error: 'file_not_found_error',
      make: () => uploadFile(api, 'chart.png'),
      uses: (id) => ({ initial_events: [{ type: 'user.message', content: [{ type: 'text', text: 'Look' }, { type: 'image', source: fileIn(id) }] }] }),
      breakIt: (id) => remove(api, 'file', id),
      fix: () => ({ initial_events: [userMessage()] }),
    },
    {
      kind: 'deleted file of a document block',
      error: 'file_not_found_error',
      make: () => uploadFile(api, 'report.txt'),
      uses: (id) => ({ initial_events: [userMessage(), { type: 'user.message', content: [{ type: 'document', source: fileIn(id), title: 'Report' }] }] }),
      breakIt: (id) => remove(api, 'file', id),
      fix: () => ({ initial_events: [userMessage()] }),
    },
    { kind: 'archived memory store', error: 'memory_store_archived_error', ...memoryStore, breakIt: (id) => archive(api, 'memory_store', id), fix: () => ({ resources: null }) },
    { kind: 'deleted memory store', error: 'session_resource_not_found_error', ...memoryStore, breakIt: (id) => remove(api, 'memory_store', id), fix: () => ({ resources: [] }) },
  ];

  test('each broken reference records the failed run and pauses with its error; manual runs still work while paused', async () => {
    const cases = [];
    for (const b of breakages) {
      const { id } = await b.make();
      cases.push({ ...b, d: await scheduled(b.uses(id)), breakIt: () => b.breakIt(id), fix: b.fix() });
    }
    await world.eventsSettled();
    for (const c of cases) await c.breakIt();
    // Creating them put their catalog references in the deployments' reference cache; the
    // breaks reach it by event, and a scheduled fire happens once, so it waits for them.
    await referenceCacheCaughtUp(world.stack);
    const occurrence = nextFive();
    await at(occurrence);

    for (const c of cases) {
      const runs = await runsOf(c.d.id);
      expect({ kind: c.kind, runs: runs.map((r: any) => [r.trigger_context, r.session_id, r.error?.type]) }).toEqual({
        kind: c.kind,
        runs: [[{ type: 'schedule', scheduled_at: occurrence }, null, c.error]],
      });
      expect(runs[0].error.message.length).toBeGreaterThan(0);
      const paused = await get(c.d.id);
      expect({ kind: c.kind, status: paused.status, reason: paused.paused_reason }).toEqual({
        kind: c.kind,
        status: 'paused',
        reason: { type: 'error', error: { type: c.error } },
      });
      expect(paused.schedule.upcoming_runs_at).toHaveLength(5);
    }
    const pausedEvents = (await world.streamEvents('deployments')).filter((e) => e.data.type === 'deployments.paused');
    for (const c of cases) {
      expect(pausedEvents.filter((e) => e.data.data.deployment_id === c.d.id).map((e) => [e.data.data.revision, e.data.data.status])).toEqual([[2, 'paused']]);
    }

    // Paused: the schedule stays quiet even once the scheduler has heard of it.
    await world.eventsSettled();
    await at(new Date(Date.parse(occurrence) + 20 * 60_000).toISOString());
    for (const c of cases) expect((await runsOf(c.d.id, { trigger_type: 'schedule' })).length).toBe(1);

    // Manual runs while paused: still recorded (failed while broken, a session once fixed), never unpause.
    for (const c of cases) {
      const failed = expectOk(await api('POST', `/v1/deployments/${c.d.id}/run`));
      expect([failed.session_id, failed.error?.type]).toEqual([null, c.error]);
      expectOk(await api('POST', `/v1/deployments/${c.d.id}`, { body: c.fix }));
      const ok = expectOk(await api('POST', `/v1/deployments/${c.d.id}/run`));
      expect({ kind: c.kind, session: typeof ok.session_id, error: ok.error }).toEqual({ kind: c.kind, session: 'string', error: null });
      expect((await get(c.d.id)).paused_reason).toEqual({ type: 'error', error: { type: c.error } });
    }

    // Unpaused, the next occurrence fires again.
    for (const c of cases) expectOk(await api('POST', `/v1/deployments/${c.d.id}/unpause`));
    await world.eventsSettled();
    const next = nextFive();
    await at(next);
    for (const c of cases) {
      const latest = (await runsOf(c.d.id, { trigger_type: 'schedule' }))[0];
      expect({ kind: c.kind, at: latest.trigger_context.scheduled_at, ok: latest.session_id !== null }).toEqual({ kind: c.kind, at: next, ok: true });
    }
  });

  test('a scheduled run of a model no longer meeting a rule records unknown_error and pauses', async () => {
    // The model catalog ships with the product, so drift is simulated by editing the stored
    // deployment: a budget on an agent whose model has no list price.
    const unpriced = await createAgent(api, { model: 'claude-private-preview' });
    const d = await scheduled({ agent: unpriced.id });
    await world.stack.service('deployments').database.pool.query(
      "UPDATE deployments SET budget = JSON_OBJECT('type', 'limit', 'max_list_cost', JSON_OBJECT('currency', 'USD', 'amount', '5')) WHERE id = ?",
      [d.id],
    );
    await world.eventsSettled();
    await at(nextFive());
    const [run] = await runsOf(d.id);
    expect(run.error).toEqual({ type: 'unknown_error', message: expect.stringContaining('list price') });
    expect((await get(d.id)).paused_reason).toEqual({ type: 'error', error: { type: 'unknown_error' } });
  });
});

describe('exactly once per occurrence', () => {
  test('firing the same occurrence again, or many times at once, returns the one run', async () => {
    const d = await scheduled();
    const occurrence = nextFive();
    const first = await world.fire(me.tenant, d.id, occurrence);
    expect(first.outcome).toBe('fired');
    const again = await world.fire(me.tenant, d.id, occurrence);
    expect(again).toEqual(first);
    const burst = await Promise.all(Array.from({ length: 6 }, () => world.fire(me.tenant, d.id, new Date(Date.parse(occurrence) + 300_000).toISOString())));
    expect(new Set(burst.map((b) => (b.outcome === 'fired' ? b.run.id : b.outcome))).size).toBe(1);
    expect(await runsOf(d.id)).toHaveLength(2);
    expect(expectOk(await api('GET', '/v1/sessions', { query: { deployment_id: d.id } })).data).toHaveLength(2);
  });

  test('fires of many deployments at once (written together) each get their own run and session; a repeat among them gets the one run', async () => {
    const ds = await Promise.all(Array.from({ length: 12 }, () => scheduled()));
    const occurrence = nextFive();
    const repeated = await world.fire(me.tenant, ds[0]!.id, occurrence);
    // The repeat of an occurrence already recorded travels with fresh fires: it must not cost them their runs.
    const burst = await Promise.all([...ds, ds[0]!, ds[1]!].map((d) => world.fire(me.tenant, d.id, occurrence)));
    const runIds = burst.map((b) => (b.outcome === 'fired' ? b.run.id : b.outcome));
    expect(runIds[0]).toBe(repeated.outcome === 'fired' ? repeated.run.id : 'none');
    expect(runIds[12]).toBe(runIds[0]);
    expect(runIds[13]).toBe(runIds[1]);
    expect(new Set(runIds).size).toBe(12);
    for (const d of ds) {
      expect(await runsOf(d.id)).toHaveLength(1);
      expect(expectOk(await api('GET', '/v1/sessions', { query: { deployment_id: d.id } })).data).toHaveLength(1);
      expect((await get(d.id)).last_run_at).not.toBeNull();
    }
    const announced = (await world.streamEvents('sessions')).filter((e) => ds.some((d) => d.id === e.data.data.deployment_id));
    expect(announced).toHaveLength(12);
  });

  test('the run recorded for an occurrence is the answer even after the deployment paused or was archived', async () => {
    const vault = await createVault(api);
    const d = await scheduled({ vault_ids: [vault.id] });
    await remove(api, 'vault', vault.id);
    const occurrence = nextFive();
    const failed = await world.fire(me.tenant, d.id, occurrence);
    expect(failed.outcome === 'fired' && failed.run.error?.type).toBe('vault_not_found_error');
    expect((await get(d.id)).status).toBe('paused');
    expect(await world.fire(me.tenant, d.id, occurrence)).toEqual(failed);
    await api('POST', `/v1/deployments/${d.id}/archive`);
    expect(await world.fire(me.tenant, d.id, occurrence)).toEqual(failed);
    expect(await runsOf(d.id)).toHaveLength(1);
  });

  test('a fire in another tenant\'s name finds nothing', async () => {
    const d = await scheduled();
    const other = await world.tenant();
    expect(await world.fire(other.tenant, d.id, nextFive())).toEqual({ outcome: 'skipped', reason: 'not_found' });
  });
});

describe('a deployment that no longer fires on schedule never does, even before the scheduler hears of it', () => {
  test('paused, archived, unscheduled or rescheduled: the scheduler\'s stale fire is skipped', async () => {
    const [paused, archived, unscheduled, moved] = [await scheduled(), await scheduled(), await scheduled(), await scheduled()];
    await world.eventsSettled();
    await world.stopConsumer();
    try {
      expectOk(await api('POST', `/v1/deployments/${paused.id}/pause`));
      expectOk(await api('POST', `/v1/deployments/${archived.id}/archive`));
      expectOk(await api('POST', `/v1/deployments/${unscheduled.id}`, { body: { schedule: null } }));
      expectOk(await api('POST', `/v1/deployments/${moved.id}`, { body: { schedule: { type: 'cron', expression: '1-4,6-9 * * * *', timezone: 'UTC' } } }));
      await at(nextFive());
      for (const d of [paused, archived, unscheduled, moved]) expect(await runsOf(d.id)).toEqual([]);
      const occurrence = new Date(Math.floor(now().getTime() / 300_000) * 300_000).toISOString();
      expect(await world.fire(me.tenant, paused.id, occurrence)).toEqual({ outcome: 'skipped', reason: 'paused' });
      expect(await world.fire(me.tenant, archived.id, occurrence)).toEqual({ outcome: 'skipped', reason: 'archived' });
      expect(await world.fire(me.tenant, unscheduled.id, occurrence)).toEqual({ outcome: 'skipped', reason: 'unscheduled' });
      expect(await world.fire(me.tenant, moved.id, occurrence)).toEqual({ outcome: 'skipped', reason: 'unscheduled' });
    } finally {
      await world.startConsumer();
    }
    // Once the scheduler catches up, unpausing brings the schedule back; the moved one runs on its new times.
    expectOk(await api('POST', `/v1/deployments/${paused.id}/unpause`));
    await world.eventsSettled();
    const next = new Date(Math.floor(now().getTime() / 300_000) * 300_000 + 600_000).toISOString();
    await at(next);
    expect((await runsOf(paused.id)).map((r: any) => r.trigger_context.scheduled_at)).toContain(next);
    expect((await runsOf(moved.id)).length).toBeGreaterThan(0);
    for (const r of await runsOf(moved.id)) expect([1, 2, 3, 4, 6, 7, 8, 9]).toContain(new Date(r.trigger_context.scheduled_at).getUTCMinutes());
    expect(await runsOf(archived.id)).toEqual([]);
    expect(await runsOf(unscheduled.id)).toEqual([]);
  });
});

describe('infrastructure trouble is not a run error', () => {
  test('with the catalog down, nothing is recorded and the occurrence fires once it is back', async () => {
    const d = await scheduled();
    await world.eventsSettled();
    // The replica that created d would answer d's references from its reference cache, catalog
    // or not (test/deployments/reference-cache.test.ts); a fresh replica knows none and must ask.
    await world.stack.stopService('deployments');
    await world.stack.startService('deployments');
    await world.stack.stopService('catalog');
    const occurrence = nextFive();
    try {
      let error: unknown;
      try {
        await world.fire(me.tenant, d.id, occurrence);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).type).toBe('overloaded_error');
      expectError(await api('POST', `/v1/deployments/${d.id}/run`), 503, 'overloaded_error');
      await at(occurrence);
      expect(await runsOf(d.id)).toEqual([]);
      expect((await get(d.id)).status).toBe('active');
    } finally {
      await world.stack.startService('catalog');
    }
    // The scheduler retries after SCHEDULER_RETRY_MS; the occurrence is still within the misfire window.
    world.clock.advance(world.config.SCHEDULER_RETRY_MS);
    await world.drain(worker);
    const runs = await runsOf(d.id);
    expect(runs.map((r: any) => [r.trigger_context.scheduled_at, r.error])).toEqual([[occurrence, null]]);
  });
});
