/**
 * GET, update, pause, unpause, archive and run on /v1/deployments/{id}, through the real
 * gateway and services: the SDK's patch semantics field by field, the status invariants, the
 * events every change records, and the optimistic lock under concurrent updates.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { openSecret, unwrapDataKey } from '@shared/crypto/envelope';
import { parseMasterKeyRing } from '@shared/crypto/master-key-ring';
import { ManualClock } from '@shared/time/clock';
import { deploymentSecrets, deployments } from '../../services/deployments/src/db/schema';
import { repositoryTokenRecordId } from '../../services/deployments/src/domain/repository-tokens';
import { apiClient, type ApiClient } from '../support/api';
import {
  archive,
  createAgent,
  createAgentVersion,
  createDeployment,
  createEnvironment,
  createVault,
  MODELS,
  remove,
  repository,
  uploadFile,
  useDeploymentStack,
  userMessage,
} from '../support/fixtures';
import { eventually } from '../support/eventually';
import { publishedEvents } from '../support/streams';
import { expectCodedError, expectError, expectOk } from '../support/expect';

const clock = new ManualClock('2026-06-01T08:00:00.000Z');
const t = useDeploymentStack({ clock, services: ['catalog', 'deployments', 'vaults'] });
let otherApi: ApiClient;

beforeAll(async () => {
  otherApi = apiClient(t.stack.url, (await t.stack.createKey()).secret);
});

const db = () => t.stack.service('deployments').database.db;
const tick = () => clock.advance(1_000);
const get = (id: string) => t.api('GET', `/v1/deployments/${id}`);
const update = (id: string, body: unknown) => t.api('POST', `/v1/deployments/${id}`, { body });
const action = (id: string, what: 'pause' | 'unpause' | 'archive' | 'run', client = t.api) =>
  client('POST', `/v1/deployments/${id}/${what}`);
const fresh = (overrides: Record<string, unknown> = {}) => createDeployment(t.api, t.world.body(overrides));

/** The deployment's events as published, in order (a published event leaves the outbox). */
async function events(id: string) {
  const published = await publishedEvents(t.stack, 'deployments', 'deployments');
  return published
    .map((m) => m.data as { type: string; data: { deployment_id: string; revision: number; status: string; archived: boolean; schedule: unknown } })
    .filter((e) => e.data.deployment_id === id)
    .map((e) => ({ type: e.type, ...e.data }));
}

async function revision(id: string) {
  const [row] = await db().select({ revision: deployments.revision }).from(deployments).where(eq(deployments.id, id));
  return row!.revision;
}

describe('GET /v1/deployments/{id}', () => {
  test('returns the deployment as created; recomputes upcoming runs from the clock', async () => {
    const created = await fresh({ schedule: { type: 'cron', expression: '0 9 * * *', timezone: 'UTC' } });
    const got = expectOk(await get(created.id));
    expect(got).toEqual(created);
    clock.set('2026-06-01T09:00:00.000Z');
    const later = expectOk(await get(created.id));
    expect(later.schedule.upcoming_runs_at[0]).toBe('2026-06-02T09:00:00.000Z');
    clock.set('2026-06-01T08:00:00.000Z');
  });

  test('unknown id and another tenant\'s deployment are the same 404', async () => {
    const created = await fresh();
    expectError(await get('depl_doesnotexist'), 404, 'not_found_error');
    expectError(await otherApi('GET', `/v1/deployments/${created.id}`), 404, 'not_found_error');
    for (const what of ['pause', 'unpause', 'archive', 'run'] as const) {
      expectError(await action(created.id, what, otherApi), 404, 'not_found_error');
    }
    expectError(await otherApi('POST', `/v1/deployments/${created.id}`, { body: { name: 'stolen' } }), 404, 'not_found_error');
    expect(expectOk(await get(created.id)).name).toBe(created.name);
  });

  test('needs the versioning headers and refuses unknown query parameters', async () => {
    const created = await fresh();
    expectError(await t.api('GET', `/v1/deployments/${created.id}`, { headers: { 'anthropic-version': null } }), 400, 'invalid_request_error', 'anthropic-version');
    expectError(await t.api('POST', `/v1/deployments/${created.id}/pause`, { headers: { 'anthropic-beta': null } }), 400, 'invalid_request_error', 'anthropic-beta');
    expectError(await t.api('GET', `/v1/deployments/${created.id}`, { query: { expand: 'x' } }), 400, 'invalid_request_error', 'expand');
    expectError(await t.api('GET', `/v1/deployments/${created.id}`, { query: { beta: null } }), 400, 'invalid_request_error', 'beta');
  });
});

describe('POST /v1/deployments/{id}: patch semantics per field', () => {
  test('an empty patch preserves every field; updated_at and the revision move', async () => {
    const file = await uploadFile(t.api);
    const vault = await createVault(t.api);
    const created = await fresh({
      description: 'keep me',
      vault_ids: [vault.id],
      resources: [{ type: 'file', file_id: file.id }, repository()],
      metadata: { a: '1' },
      schedule: { type: 'cron', expression: '0 9 * * *', timezone: 'UTC' },
      budget: { type: 'limit', max_list_cost: { currency: 'USD', amount: '100' } },
    });
    tick();
    const updated = expectOk(await update(created.id, {}));
    expect({ ...updated, updated_at: created.updated_at }).toEqual(created);
    expect(updated.updated_at).not.toBe(created.updated_at);
    expect(updated.created_at).toBe(created.created_at);
    expect(await revision(created.id)).toBe(2);
  });

  test('name: replaced; cannot be empty or cleared', async () => {
    const d = await fresh();
    expect(expectOk(await update(d.id, { name: 'renamed' })).name).toBe('renamed');
    expectError(await update(d.id, { name: '' }), 400, 'invalid_request_error', 'name');
    expectError(await update(d.id, { name: null }), 400, 'invalid_request_error', 'name');
    expect(expectOk(await get(d.id)).name).toBe('renamed');
  });

  test('description: replaced; null or "" clears', async () => {
    const d = await fresh({ description: 'first' });
    expect(expectOk(await update(d.id, { description: 'second' })).description).toBe('second');
    expect(expectOk(await update(d.id, { name: 'n' })).description).toBe('second');
    expect(expectOk(await update(d.id, { description: '' })).description).toBeNull();
    await update(d.id, { description: 'again' });
    expect(expectOk(await update(d.id, { description: null })).description).toBeNull();
    expectError(await update(d.id, { description: 'x'.repeat(2049) }), 400, 'invalid_request_error', 'description');
  });

  test('agent: a string re-pins the latest version, an object pins its version; cannot be cleared', async () => {
    const agent = await createAgent(t.api);
    const d = await fresh({ agent: agent.id });
    expect(d.agent).toEqual({ type: 'agent', id: agent.id, version: 1 });
    const v2 = await createAgentVersion(t.api, agent);
    expect(expectOk(await update(d.id, { name: 'kept pin' })).agent.version).toBe(1);
    // The deployments' reference cache learns of version 2 by event (it answered version 1 at creation).
    const repinned = await eventually('the new agent version to reach the reference cache', async () => {
      const updated = expectOk(await update(d.id, { agent: agent.id }));
      return updated.agent.version === v2.version ? updated : undefined;
    });
    expect(repinned.agent).toEqual({ type: 'agent', id: agent.id, version: v2.version });
    expect(expectOk(await update(d.id, { agent: { type: 'agent', id: agent.id, version: 1 } })).agent.version).toBe(1);
    expectError(await update(d.id, { agent: { type: 'agent', id: agent.id, version: 9 } }), 404, 'not_found_error', 'agent');
    expectError(await update(d.id, { agent: 'agent_missing' }), 404, 'not_found_error', 'agent_missing');
    expectError(await update(d.id, { agent: null }), 400, 'invalid_request_error', 'agent');
    const archived = await createAgent(t.api);
    await archive(t.api, 'agent', archived.id);
    expectError(await update(d.id, { agent: archived.id }), 400, 'invalid_request_error', archived.id, 'archived');
    expect(expectOk(await get(d.id)).agent.version).toBe(1);
  });

  test('environment_id: replaced and checked; cannot be cleared', async () => {
    const d = await fresh();
    const next = await createEnvironment(t.api);
    expect(expectOk(await update(d.id, { environment_id: next.id })).environment_id).toBe(next.id);
    expectError(await update(d.id, { environment_id: 'env_missing' }), 404, 'not_found_error', 'environment_id');
    const gone = await createEnvironment(t.api);
    await archive(t.api, 'environment', gone.id);
    expectError(await update(d.id, { environment_id: gone.id }), 400, 'invalid_request_error', 'environment_id', 'archived');
    expectError(await update(d.id, { environment_id: null }), 400, 'invalid_request_error', 'environment_id');
  });

  test('vault_ids: replaced whole; null or [] clears; each checked', async () => {
    const [a, b] = await Promise.all([createVault(t.api), createVault(t.api)]);
    const d = await fresh({ vault_ids: [a.id] });
    expect(expectOk(await update(d.id, { vault_ids: [b.id, a.id] })).vault_ids).toEqual([b.id, a.id]);
    expect(expectOk(await update(d.id, { vault_ids: null })).vault_ids).toEqual([]);
    await update(d.id, { vault_ids: [a.id] });
    expect(expectOk(await update(d.id, { vault_ids: [] })).vault_ids).toEqual([]);
    expectError(await update(d.id, { vault_ids: [a.id, 'vlt_missing'] }), 404, 'not_found_error', 'vault_ids.1');
    await archive(t.api, 'vault', b.id);
    expectError(await update(d.id, { vault_ids: [b.id] }), 400, 'invalid_request_error', 'vault_ids.0', 'archived');
    expectError(await update(d.id, { vault_ids: Array.from({ length: 51 }, (_, i) => `vlt_${i}`) }), 400, 'invalid_request_error', 'vault_ids');
  });

  test('initial_events: replaced whole, defaults resolved; cannot be cleared or emptied; model rules apply', async () => {
    const d = await fresh();
    const outcome = { type: 'user.define_outcome', description: 'Do it', rubric: { type: 'text', content: 'well' } };
    const updated = expectOk(await update(d.id, { initial_events: [userMessage('new'), outcome] }));
    expect(updated.initial_events).toEqual([userMessage('new'), { ...outcome, max_iterations: 3 }]);
    expectError(await update(d.id, { initial_events: [] }), 400, 'invalid_request_error', 'initial_events');
    expectError(await update(d.id, { initial_events: null }), 400, 'invalid_request_error', 'initial_events');
    expectError(
      await update(d.id, { initial_events: [userMessage(), { type: 'user.define_outcome', description: 'x', rubric: { type: 'file', file_id: 'file_missing' } }] }),
      404,
      'not_found_error',
      'initial_events.1.rubric.file_id',
    );
    const imageOf = (file_id: string) => ({ type: 'user.message', content: [{ type: 'image', source: { type: 'file', file_id } }] });
    expectError(await update(d.id, { initial_events: [imageOf('file_missing')] }), 404, 'not_found_error', 'initial_events.0.content.0.source.file_id');
    const file = await uploadFile(t.api);
    expect(expectOk(await update(d.id, { initial_events: [imageOf(file.id)] })).initial_events).toEqual([imageOf(file.id)]);
    const system = { type: 'system.message', content: [{ type: 'text', text: 'Be brief' }] };
    expectError(await update(d.id, { initial_events: [system, userMessage()] }), 400, 'invalid_request_error', 'final event');
    const quiet = await createAgent(t.api, { model: MODELS.noSystemMessages });
    const q = await fresh({ agent: quiet.id });
    expectError(await update(q.id, { initial_events: [userMessage(), system] }), 400, 'invalid_request_error', 'system.message');
    // Moving a deployment whose events carry a system.message to such an agent is refused too.
    const s = await fresh({ initial_events: [userMessage(), system] });
    expectError(await update(s.id, { agent: quiet.id }), 400, 'invalid_request_error', 'system.message');
  });

  test('resources: replaced whole with their tokens re-sealed; null or [] clears them and their tokens', async () => {
    const file = await uploadFile(t.api);
    const d = await fresh({ resources: [repository({ authorization_token: 'ghp_first' })] });
    const updated = expectOk(
      await update(d.id, {
        resources: [{ type: 'file', file_id: file.id }, repository({ url: 'https://github.com/acme/gadgets', authorization_token: 'ghp_second' })],
      }),
    );
    expect(updated.resources).toEqual([
      { type: 'file', file_id: file.id, mount_path: `/mnt/session/uploads/${file.id}` },
      { type: 'hosted_repository', url: 'https://github.com/acme/gadgets', mount_path: '/workspace/gadgets', checkout: null },
    ]);
    expect(JSON.stringify(updated)).not.toContain('ghp_second');
    const [row] = await db().select().from(deployments).where(eq(deployments.id, d.id));
    const secrets = await db().select().from(deploymentSecrets).where(eq(deploymentSecrets.deploymentId, d.id));
    expect(secrets.map((s) => s.resourceIndex)).toEqual([1]);
    const ring = parseMasterKeyRing({ NODE_ENV: 'test' });
    const key = unwrapDataKey(ring, { keyId: row!.dataKeyId!, wrapped: row!.dataKeyWrapped! }, d.id);
    expect(openSecret(key, secrets[0]!.sealed, repositoryTokenRecordId(d.id, 1))).toBe('ghp_second');

    // A replacement list must carry its tokens again.
    expectError(
      await update(d.id, { resources: [{ type: 'hosted_repository', url: 'https://github.com/acme/widgets' }] }),
      400,
      'invalid_request_error',
      'resources.0.authorization_token',
    );
    expectError(await update(d.id, { resources: [{ type: 'file', file_id: 'file_missing' }] }), 404, 'not_found_error', 'resources.0.file_id');
    expectError(
      await update(d.id, { resources: [repository({ mount_path: '/workspace/x' }), { type: 'file', file_id: file.id, mount_path: '/workspace/x' }] }),
      400,
      'invalid_request_error',
      'resources.1.mount_path',
    );

    expect(expectOk(await update(d.id, { resources: null })).resources).toEqual([]);
    expect(await db().select().from(deploymentSecrets).where(eq(deploymentSecrets.deploymentId, d.id))).toEqual([]);
    const [cleared] = await db().select().from(deployments).where(eq(deployments.id, d.id));
    expect(cleared!.dataKeyWrapped).toBeNull();
    await update(d.id, { resources: [{ type: 'file', file_id: file.id }] });
    expect(expectOk(await update(d.id, { resources: [] })).resources).toEqual([]);
  });

  test('metadata: a string upserts, null deletes, omitted keys stay; the limit applies to the result', async () => {
    const full = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, String(i)]));
    const d = await fresh({ metadata: { keep: 'yes', drop: 'me', change: 'old' } });
    const patched = expectOk(await update(d.id, { metadata: { drop: null, change: 'new', add: 'added', absent: null } }));
    expect(patched.metadata).toEqual({ keep: 'yes', change: 'new', add: 'added' });
    expect(expectOk(await update(d.id, { metadata: null })).metadata).toEqual(patched.metadata);
    expect(expectOk(await update(d.id, { name: 'x' })).metadata).toEqual(patched.metadata);

    const f = await fresh({ metadata: full });
    expectCodedError(await update(f.id, { metadata: { k16: 'one too many' } }), 400, 'invalid_request_error', 'invalid_metadata', 'metadata', '16');
    expect(expectOk(await update(f.id, { metadata: { k16: 'swap', k0: null } })).metadata).toEqual({ ...Object.fromEntries(Object.entries(full).filter(([k]) => k !== 'k0')), k16: 'swap' });
    expectCodedError(await update(f.id, { metadata: { ['x'.repeat(65)]: 'v' } }), 400, 'invalid_request_error', 'invalid_metadata', 'metadata');
    expectCodedError(await update(f.id, { metadata: { k1: 'x'.repeat(513) } }), 400, 'invalid_request_error', 'invalid_metadata', 'metadata.k1');
    expectCodedError(await update(f.id, { metadata: { k1: 5 } }), 400, 'invalid_request_error', 'invalid_metadata', 'metadata.k1');
  });

  test('schedule: replaced; null reverts to manual-only; validated like at creation', async () => {
    const d = await fresh();
    expect(d.schedule).toBeNull();
    const scheduled = expectOk(await update(d.id, { schedule: { type: 'cron', expression: '30 9 * * 1', timezone: 'Europe/Paris' } }));
    expect(scheduled.schedule).toEqual({
      type: 'cron',
      expression: '30 9 * * 1',
      timezone: 'Europe/Paris',
      last_run_at: null,
      // 09:30 in Paris is 07:30Z in summer; Monday 1 June's has passed at 08:00Z.
      upcoming_runs_at: ['2026-06-08T07:30:00.000Z', '2026-06-15T07:30:00.000Z', '2026-06-22T07:30:00.000Z', '2026-06-29T07:30:00.000Z', '2026-07-06T07:30:00.000Z'],
    });
    expectError(await update(d.id, { schedule: { type: 'cron', expression: '@daily', timezone: 'UTC' } }), 400, 'invalid_request_error', 'schedule.expression');
    expectError(await update(d.id, { schedule: { type: 'cron', expression: '0 9 * * *', timezone: 'Mars/Olympus' } }), 400, 'invalid_request_error', 'schedule.timezone');
    expect(expectOk(await update(d.id, { name: 'still scheduled' })).schedule.expression).toBe('30 9 * * 1');
    expect(expectOk(await update(d.id, { schedule: null })).schedule).toBeNull();
  });

  test('budget: replaced; null clears (the field is then absent); needs a priced model', async () => {
    const d = await fresh();
    const budget = { type: 'limit', max_list_cost: { currency: 'USD', amount: '2500' } };
    expect(expectOk(await update(d.id, { budget })).budget).toEqual(budget);
    expect(expectOk(await update(d.id, { name: 'kept' })).budget).toEqual(budget);
    const cleared = expectOk(await update(d.id, { budget: null }));
    expect('budget' in cleared).toBe(false);
    expectError(await update(d.id, { budget: { type: 'limit', max_list_cost: { currency: 'EUR', amount: '1' } } }), 400, 'invalid_request_error', 'budget');

    const unpriced = await createAgent(t.api, { model: MODELS.unpriced });
    const u = await fresh({ agent: unpriced.id });
    expectError(await update(u.id, { budget }), 400, 'invalid_request_error', 'budget', 'list price');
    const b = await fresh({ budget });
    expectError(await update(b.id, { agent: unpriced.id }), 400, 'invalid_request_error', 'budget');
    expect(expectOk(await update(b.id, { agent: unpriced.id, budget: null })).agent.id).toBe(unpriced.id);
  });

  test('unknown properties and a non-JSON body are refused', async () => {
    const d = await fresh();
    expectError(await update(d.id, { colour: 'red' }), 400, 'invalid_request_error', 'colour');
    expectError(await update(d.id, { schedule: { type: 'cron', expression: '0 9 * * *', timezone: 'UTC', extra: 1 } }), 400, 'invalid_request_error', 'schedule.extra');
    expectError(await t.api('POST', `/v1/deployments/${d.id}`, { rawBody: '{', headers: { 'content-type': 'application/json' } }), 400, 'invalid_request_error');
  });
});

describe('pause, unpause, archive', () => {
  test('pause sets paused_reason manual; unpause clears it; both idempotent; the invariant holds throughout', async () => {
    const d = await fresh({ schedule: { type: 'cron', expression: '0 9 * * *', timezone: 'UTC' } });
    tick();
    const paused = expectOk(await action(d.id, 'pause'));
    expect(paused.status).toBe('paused');
    expect(paused.paused_reason).toEqual({ type: 'manual' });
    expect(paused.schedule.upcoming_runs_at).toHaveLength(5);
    expect(paused.updated_at).not.toBe(d.updated_at);
    const again = expectOk(await action(d.id, 'pause'));
    expect(again).toEqual(paused);
    // Still updatable while paused, and still paused afterwards.
    const renamed = expectOk(await update(d.id, { name: 'while paused' }));
    expect([renamed.status, renamed.paused_reason]).toEqual(['paused', { type: 'manual' }]);
    const active = expectOk(await action(d.id, 'unpause'));
    expect([active.status, active.paused_reason]).toEqual(['active', null]);
    expect(expectOk(await action(d.id, 'unpause'))).toEqual(active);
    expect((await events(d.id)).map((e) => [e.type, e.revision, e.status])).toEqual([
      ['deployments.created', 1, 'active'],
      ['deployments.paused', 2, 'paused'],
      ['deployments.updated', 3, 'paused'],
      ['deployments.unpaused', 4, 'active'],
    ]);
    const listed = expectOk(await t.api('GET', '/v1/deployments', { query: { status: 'paused', limit: '100' } }));
    expect(listed.data.map((x: any) => x.id)).not.toContain(d.id);
  });

  test('archive: status active, archived_at set, no upcoming runs; one-way; archived rejects update, pause, unpause and run', async () => {
    const d = await fresh({ schedule: { type: 'cron', expression: '0 9 * * *', timezone: 'UTC' } });
    await action(d.id, 'pause');
    tick();
    const archived = expectOk(await action(d.id, 'archive'));
    expect(archived.status).toBe('active');
    expect(archived.paused_reason).toBeNull();
    expect(archived.archived_at).toBe(clock.now().toISOString());
    expect(archived.schedule.upcoming_runs_at).toEqual([]);
    expect(archived.schedule.last_run_at).toBeNull();
    tick();
    expect(expectOk(await action(d.id, 'archive'))).toEqual(archived);
    expect(expectOk(await get(d.id))).toEqual(archived);
    for (const what of ['pause', 'unpause', 'run'] as const) {
      expectError(await action(d.id, what), 400, 'invalid_request_error', 'archived');
    }
    expectError(await update(d.id, { name: 'no' }), 400, 'invalid_request_error', 'archived');
    const trail = await events(d.id);
    expect(trail.map((e) => [e.type, e.revision, e.status, e.archived])).toEqual([
      ['deployments.created', 1, 'active', false],
      ['deployments.paused', 2, 'paused', false],
      ['deployments.archived', 3, 'active', true],
    ]);
    const live = expectOk(await t.api('GET', '/v1/deployments', { query: { limit: '100' } }));
    expect(live.data.map((x: any) => x.id)).not.toContain(d.id);
  });

  test('action routes take no body and no unknown query; a read-only key may not call them', async () => {
    const d = await fresh();
    expectError(await t.api('POST', `/v1/deployments/${d.id}/pause`, { body: { reason: 'x' } }), 400, 'invalid_request_error', 'body');
    expectError(await t.api('POST', `/v1/deployments/${d.id}/pause`, { query: { now: '1' } }), 400, 'invalid_request_error', 'now');
    expect(expectOk(await t.api('POST', `/v1/deployments/${d.id}/pause`, { body: {} })).status).toBe('paused');
    const readOnly = apiClient(t.stack.url, (await t.stack.createKey({ scope: 'read_only' })).secret);
    expectError(await readOnly('POST', `/v1/deployments/${d.id}/unpause`), 403, 'permission_error');
  });
});

describe('run now', () => {
  test('returns the run with its session; allowed while paused; never touches last_run_at', async () => {
    const d = await fresh({ schedule: { type: 'cron', expression: '0 9 * * *', timezone: 'UTC' } });
    const run = expectOk(await action(d.id, 'run'));
    expect(run).toEqual({
      type: 'deployment_run',
      id: expect.stringMatching(/^drun_[0-9A-Za-z]{24}$/),
      deployment_id: d.id,
      agent: d.agent,
      trigger_context: { type: 'manual' },
      session_id: expect.stringMatching(/^sesn_[0-9A-Za-z]{24}$/),
      error: null,
      created_at: clock.now().toISOString(),
    });
    await action(d.id, 'pause');
    const whilePaused = expectOk(await action(d.id, 'run'));
    expect(whilePaused.session_id).toMatch(/^sesn_/);
    const after = expectOk(await get(d.id));
    expect(after.schedule.last_run_at).toBeNull();
    expect([after.status, after.paused_reason]).toEqual(['paused', { type: 'manual' }]);
    expectError(await action('depl_missing', 'run'), 404, 'not_found_error');
  });

  test('a manual run whose reference broke records the failed run and never pauses', async () => {
    const vault = await createVault(t.api);
    const d = await fresh({ vault_ids: [vault.id] });
    await remove(t.api, 'vault', vault.id);
    const run = expectOk(await action(d.id, 'run'));
    expect(run.session_id).toBeNull();
    expect(run.error).toEqual({ type: 'vault_not_found_error', message: expect.stringContaining(vault.id) });
    const after = expectOk(await get(d.id));
    expect([after.status, after.paused_reason]).toEqual(['active', null]);
  });
});

describe('concurrent updates', () => {
  test('none is lost: each either applies on top of the others or answers 409', async () => {
    const d = await fresh();
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => update(d.id, { metadata: { [`k${i}`]: String(i) } })));
    const applied = results.flatMap((r, i) => (r.status === 200 ? [`k${i}`] : []));
    for (const r of results) if (r.status !== 200) expectError(r, 409, 'invalid_request_error', 'concurrent');
    expect(applied.length).toBeGreaterThan(0);
    const final = expectOk(await get(d.id));
    expect(Object.keys(final.metadata).sort()).toEqual(applied.sort());
    expect(await revision(d.id)).toBe(1 + applied.length);
    const trail = await events(d.id);
    expect(trail.map((e) => e.revision)).toEqual(Array.from({ length: 1 + applied.length }, (_, i) => i + 1));
  });
});

describe('with the catalog away', () => {
  test('a patch naming no reference still applies; one that needs the catalog is 503 and changes nothing', async () => {
    const d = await fresh({ metadata: { a: '1' } });
    // Never named in a deployment: the replica's reference cache does not know it, so only the catalog can answer.
    const unseen = await createAgent(t.api);
    await t.stack.stopService('catalog');
    try {
      const renamed = expectOk(await update(d.id, { name: 'offline rename', metadata: { b: '2' }, schedule: null, vault_ids: [] }));
      expect([renamed.name, renamed.metadata]).toEqual(['offline rename', { a: '1', b: '2' }]);
      expectError(await update(d.id, { agent: unseen.id, name: 'not applied' }), 503, 'overloaded_error');
      expect(expectOk(await get(d.id)).name).toBe('offline rename');
      expect(expectOk(await action(d.id, 'pause')).status).toBe('paused');
    } finally {
      await t.stack.startService('catalog');
    }
  });
});
