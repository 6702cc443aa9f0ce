/**
 * The reference client against the lifecycle, run and session routes: the official SDK,
 * pointed at the stack, retrieves, updates, pauses, unpauses, runs and archives deployments,
 * and auto-paginates runs and sessions (the latter on the SDK's bidirectional cursor).
 */
import type Anthropic from '@anthropic-ai/sdk';
import { describeEachSdk, type SdkUnderTest } from '../support/sdk';
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { MODELS } from '../support/fixtures';
import { Stack } from '../support/stack';
import { sdkFailure } from '../support/expect';

/** The SDK version the current block runs under (each block sets it in its beforeAll). */
let sdk: SdkUnderTest;

let stack: Stack;
let client: Anthropic;
let recordingFetch: typeof fetch;
/** The `anthropic-beta` header of every request the SDK sent, by path. */
const betas = new Map<string, Set<string>>();

beforeAll(async () => {
  stack = await Stack.start({ services: ['catalog', 'deployments', 'vaults'] });
  recordingFetch = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    const route = url.pathname.replace(/\/(depl|drun|sesn)_[A-Za-z0-9]+/, '/{id}');
    if (!betas.has(route)) betas.set(route, new Set());
    betas.get(route)!.add(headers.get('anthropic-beta') ?? '(none)');
    return fetch(input, init);
  }) as typeof fetch;
});
afterAll(() => stack?.stop());


/** A deployment of a new agent and environment, every step through the SDK. */
async function createThroughSdk(name: string, metadata?: Record<string, string>) {
  const agent = await client.beta.agents.create({ name: `${name} agent`, model: MODELS.priced });
  const environment = await client.beta.environments.create({ name: `${name} environment`, config: { type: 'cloud' } });
  return client.beta.deployments.create({
    name,
    agent: agent.id,
    environment_id: environment.id,
    initial_events: [{ type: 'user.message', content: [{ type: 'text', text: 'Go' }] }],
    ...(metadata ? { metadata } : {}),
  });
}

describeEachSdk('the SDK against deployments, runs and sessions', (under) => {
  beforeAll(async () => {
    sdk = under;
    client = new sdk.Anthropic({ apiKey: (await stack.createKey()).secret, baseURL: stack.url, maxRetries: 0, fetch: recordingFetch });
  });

  test('deployments: retrieve, update, pause, unpause, run, archive', async () => {
    const created = await createThroughSdk('sdk lifecycle', { team: 'ops', drop: 'me' });
    expect(await client.beta.deployments.retrieve(created.id)).toEqual(created);

    const updated = await client.beta.deployments.update(created.id, {
      name: 'sdk lifecycle, renamed',
      description: 'now described',
      metadata: { drop: null, added: 'yes' },
      schedule: { type: 'cron', expression: '0 9 * * 1-5', timezone: 'America/Los_Angeles' },
      budget: { type: 'limit', max_list_cost: { currency: 'USD', amount: '900' } },
      resources: [{ type: 'github_repository', url: 'https://github.com/acme/widgets', authorization_token: 'ghp_sdk' }],
    });
    expect(updated).toMatchObject({
      name: 'sdk lifecycle, renamed',
      description: 'now described',
      metadata: { team: 'ops', added: 'yes' },
      budget: { type: 'limit', max_list_cost: { currency: 'USD', amount: '900' } },
      resources: [{ type: 'github_repository', url: 'https://github.com/acme/widgets', mount_path: '/workspace/widgets', checkout: null }],
    });
    expect(updated.schedule?.upcoming_runs_at).toHaveLength(5);
    const cleared = await client.beta.deployments.update(created.id, { schedule: null, budget: null, description: null });
    expect([cleared.schedule, cleared.budget, cleared.description]).toEqual([null, undefined, null]);

    const paused = await client.beta.deployments.pause(created.id);
    expect([paused.status, paused.paused_reason]).toEqual(['paused', { type: 'manual' }]);
    const run = await client.beta.deployments.run(created.id);
    expect(run).toMatchObject({ type: 'deployment_run', deployment_id: created.id, trigger_context: { type: 'manual' }, error: null });
    expect(run.session_id).toMatch(/^sesn_/);
    const unpaused = await client.beta.deployments.unpause(created.id);
    expect([unpaused.status, unpaused.paused_reason]).toEqual(['active', null]);
    const archived = await client.beta.deployments.archive(created.id);
    expect(archived.archived_at).not.toBeNull();
    expect(archived.status).toBe('active');
    expect(await sdkFailure(client.beta.deployments.run(created.id))).toBeInstanceOf(sdk.Anthropic.BadRequestError);
    expect(await sdkFailure(client.beta.deployments.retrieve('depl_missing'))).toBeInstanceOf(sdk.Anthropic.NotFoundError);
  });

  test('runs and sessions: list with auto-pagination, retrieve', async () => {
    const deployment = await createThroughSdk('runs');
    const runs = [];
    for (let i = 0; i < 5; i++) runs.push(await client.beta.deployments.run(deployment.id));

    const listed: string[] = [];
    for await (const run of client.beta.deploymentRuns.list({ deployment_id: deployment.id, limit: 2 })) listed.push(run.id);
    expect(listed.sort()).toEqual(runs.map((r) => r.id).sort());
    const manual = await client.beta.deploymentRuns.list({ deployment_id: deployment.id, trigger_type: 'manual', has_error: false, limit: 10 });
    expect(manual.data).toHaveLength(5);
    expect(await client.beta.deploymentRuns.retrieve(runs[0]!.id)).toEqual(runs[0]!);

    const sessions: string[] = [];
    for await (const session of client.beta.sessions.list({ deployment_id: deployment.id, limit: 2 })) sessions.push(session.id);
    expect(sessions.sort()).toEqual(runs.map((r) => r.session_id!).sort());
    const page = await client.beta.sessions.list({ deployment_id: deployment.id, limit: 2 });
    expect(page.prev_page).toBeNull();
    expect(page.hasNextPage()).toBe(true);
    const session = await client.beta.sessions.retrieve(runs[0]!.session_id!);
    expect(session).toMatchObject({ type: 'session', id: runs[0]!.session_id, deployment_id: deployment.id, status: 'idle', vault_ids: [] });
    expect(await sdkFailure(client.beta.deploymentRuns.retrieve('drun_missing'))).toBeInstanceOf(sdk.Anthropic.NotFoundError);
    expect(await sdkFailure(client.beta.sessions.retrieve('sesn_missing'))).toBeInstanceOf(sdk.Anthropic.NotFoundError);
  });

  test('every one of these routes is sent with the managed-agents beta, sessions included', () => {
    for (const route of ['/v1/sessions', '/v1/sessions/{id}', '/v1/deployment_runs', '/v1/deployment_runs/{id}', '/v1/deployments/{id}/run']) {
      expect({ route, betas: [...(betas.get(route) ?? [])] }).toEqual({ route, betas: ['managed-agents-2026-04-01'] });
    }
  });
});
