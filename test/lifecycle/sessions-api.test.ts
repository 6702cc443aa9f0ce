/**
 * The session resource through the unchanged SDK (issue 13, parts 1 and 4): create, retrieve,
 * update (title, metadata, the SDK's budget rules, the agent's tools), list, archive, delete;
 * a session's resources (list, add, retrieve, token rotation, delete); the full agent snapshot,
 * for API and fired sessions alike; tenant isolation, read-only keys, archived sessions.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { describeEachSdk, type SdkUnderTest } from '../support/sdk';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { sessions } from '../../services/deployments/src/db/schema';
import { apiClient, type ApiClient } from '../support/api';
import { expectError, expectOk } from '../support/expect';
import { createAgentVersion, createMemoryStore, MODELS, uploadFile, userMessage } from '../support/fixtures';
import { expectSdkShape } from '../support/sdk-shape';
import { Stack } from '../support/stack';
import { publishedEvents } from '../support/streams';

/** The SDK version the current block runs under (each block sets it in its beforeAll). */
let sdk: SdkUnderTest;

let stack: Stack;
let client: Anthropic;
let api: ApiClient;
let other: ApiClient;
let readOnly: ApiClient;
let agent: Anthropic.Beta.Agents.BetaManagedAgentsAgent;
let environmentId: string;

const TOKEN = 'ghp_SESSION_SECRET_never_echoed_42';
const repository = { type: 'github_repository' as const, url: 'https://github.com/acme/widgets.git', authorization_token: TOKEN };

beforeAll(async () => {
  stack = await Stack.start({ services: ['catalog', 'deployments', 'vaults'] });
});
afterAll(() => stack?.stop());

/** The agent version's definition a session must carry: the agent without its resource fields. */
const snapshotOf = (a: typeof agent) => {
  const { metadata: _m, created_at: _c, updated_at: _u, archived_at: _a, ...definition } = a;
  return definition;
};

const newSession = (params: Partial<Anthropic.Beta.Sessions.SessionCreateParams> = {}) =>
  client.beta.sessions.create({ agent: agent.id, environment_id: environmentId, ...params });

describeEachSdk('sessions through the SDK and HTTP', (under) => {
  beforeAll(async () => {
    sdk = under;
    // A tenant of its own per SDK version: lists and counts see only this block's rows.
    const org = `org_sessionsapi${sdk.version.replace(/\./g, '')}`;
    const workspace = `wrkspc_sessionsapi${sdk.version.replace(/\./g, '')}`;
    const mine = await stack.createKey({ org, workspace });
    client = new sdk.Anthropic({ apiKey: mine.secret, baseURL: stack.url, maxRetries: 0 });
    api = apiClient(stack.url, mine.secret);
    other = apiClient(stack.url, (await stack.createKey()).secret);
    readOnly = apiClient(stack.url, (await stack.createKey({ org, workspace, scope: 'read_only' })).secret);
    agent = await client.beta.agents.create({ name: 'session agent', description: 'answers', model: MODELS.priced, system: 'Be brief.' });
    environmentId = (await client.beta.environments.create({ name: 'session environment', config: { type: 'cloud' } })).id;
  });

  describe('sessions', () => {
    test('create: the full agent snapshot, resources with ids, every field the SDK declares; retrieve answers the same', async () => {
      const created = await newSession({
        title: 'triage',
        metadata: { team: 'ops' },
        initial_events: [
          userMessage('Where is my order?') as Anthropic.Beta.Sessions.BetaManagedAgentsUserMessageEventParams,
          { type: 'user.define_outcome', description: 'A tracking link', rubric: { type: 'text', content: 'has a link' } },
        ],
        resources: [repository, { type: 'file', file_id: (await uploadFile(api)).id }],
      });
      expectSdkShape(created, 'BetaManagedAgentsSession');
      expect(created).toMatchObject({
        type: 'session',
        deployment_id: null,
        environment_id: environmentId,
        vault_ids: [],
        status: 'idle',
        title: 'triage',
        metadata: { team: 'ops' },
        budget: null,
        archived_at: null,
      });
      expect(created.id).toMatch(/^sesn_/);
      expect(created.agent).toEqual(snapshotOf(agent) as never);
      expect(created.resources).toHaveLength(2);
      for (const r of created.resources) {
        expect((r as { id: string }).id).toMatch(/^sesrsc_/);
        expect((r as { created_at: string }).created_at).toBe(created.created_at);
      }
      expect(created.resources[0]).toMatchObject({ type: 'github_repository', mount_path: '/workspace/widgets', checkout: null });
      expect(created.outcome_evaluations).toEqual([
        expect.objectContaining({ type: 'outcome_evaluation', description: 'A tracking link', result: 'pending', iteration: 0, completed_at: null }),
      ]);
      expect(JSON.stringify(created)).not.toContain(TOKEN);
      const retrieved = await client.beta.sessions.retrieve(created.id);
      expect(retrieved).toEqual(created);
      expect(JSON.stringify(retrieved)).not.toContain(TOKEN);

      // The outcome ids are the log's: the initial define_outcome's, then one sent later.
      const logged = (await client.beta.sessions.events.list(created.id)).data.filter((e) => e.type === 'user.define_outcome');
      expect(created.outcome_evaluations.map((o) => o.outcome_id)).toEqual(logged.map((e) => (e as { outcome_id: string }).outcome_id));
      const sent = await client.beta.sessions.events.send(created.id, {
        events: [{ type: 'user.define_outcome', description: 'A refund', rubric: { type: 'text', content: 'refunded' } }],
      });
      const outcomes = (await client.beta.sessions.retrieve(created.id)).outcome_evaluations;
      expect(outcomes).toEqual([
        created.outcome_evaluations[0]!,
        { type: 'outcome_evaluation', outcome_id: (sent.data![0] as { outcome_id: string }).outcome_id, description: 'A refund', result: 'pending', iteration: 0, explanation: null, completed_at: null },
      ]);
    });

    test('create pins a version: {type: agent, id, version} keeps it, an id alone takes the latest', async () => {
      const v2 = await createAgentVersion(api, agent, { system: 'Be briefer.' });
      const pinned = await newSession({ agent: { type: 'agent', id: agent.id, version: agent.version } });
      expect(pinned.agent).toEqual(snapshotOf(agent) as never);
      const latest = await newSession();
      expect(latest.agent).toMatchObject({ id: agent.id, version: v2.version, system: 'Be briefer.' });
      agent = v2;
    });

    test('create refuses what it cannot honour, naming the field', async () => {
      const body = { agent: agent.id, environment_id: environmentId };
      expectError(await api('POST', '/v1/sessions', { body: { ...body, agent: { type: 'agent_with_overrides', id: agent.id, system: 'x' } } }), 400, 'invalid_request_error', 'agent', 'agent_with_overrides');
      expectError(await api('POST', '/v1/sessions', { body: { ...body, environment_id: 'env_000000000000000000000000' } }), 404, 'not_found_error', 'environment_id');
      expectError(await api('POST', '/v1/sessions', { body: { ...body, agent: 'agent_000000000000000000000000' } }), 404, 'not_found_error', 'agent');
      expectError(await api('POST', '/v1/sessions', { body: { ...body, resources: [{ type: 'file', file_id: 'file_000000000000000000000000' }] } }), 404, 'not_found_error', 'resources.0.file_id');
      expectError(await api('POST', '/v1/sessions', { body: { ...body, colour: 'blue' } }), 400, 'invalid_request_error', 'colour');
      const unpriced = expectOk(await api('POST', '/v1/agents', { body: { name: 'unpriced', model: MODELS.unpriced } }));
      const budget = { type: 'limit', max_list_cost: { currency: 'USD', amount: '500' } };
      expectError(await api('POST', '/v1/sessions', { body: { ...body, agent: unpriced.id, budget } }), 400, 'invalid_request_error', 'budget', 'model_not_budgetable');
    });

    test('update: title, metadata patch, agent tools; vault_ids reserved', async () => {
      const session = await newSession({ metadata: { keep: 'me', drop: 'me' } });
      const updated = await client.beta.sessions.update(session.id, { title: 'renamed', metadata: { drop: null, added: 'yes' }, agent: { tools: [], mcp_servers: [] } });
      expect(updated).toMatchObject({ title: 'renamed', metadata: { keep: 'me', added: 'yes' } });
      expect(updated.agent).toEqual(session.agent);
      expect(updated.updated_at >= session.updated_at).toBe(true);
      expect((await client.beta.sessions.update(session.id, { title: null })).title).toBeNull();
      await client.beta.sessions.update(session.id, { title: null }); // changes nothing: no event
      expectError(await api('POST', `/v1/sessions/${session.id}`, { body: { vault_ids: [] } }), 400, 'invalid_request_error', 'vault_ids');
      expectSdkShape(updated, 'BetaManagedAgentsSession');
      // Each update that changed something is in the session's log, with only what it changed.
      const logged = (await client.beta.sessions.events.list(session.id, { limit: 100 })).data.filter((e) => e.type === 'session.updated');
      for (const e of logged) expectSdkShape(e, 'BetaManagedAgentsSessionUpdatedEvent');
      expect(logged.map(({ id: _id, processed_at: _at, ...rest }) => rest)).toEqual([
        { type: 'session.updated', title: 'renamed', metadata: { keep: 'me', added: 'yes' } },
        { type: 'session.updated', title: null },
      ] as never);
    });

    test("agent: a session keeps the agent's tools and MCP servers, replaces them on update (never the agent's), and keeps its roster as full definitions", async () => {
      const tooled = await client.beta.agents.create({
        name: 'tooled',
        model: MODELS.priced,
        tools: [{ type: 'agent_toolset_20260401' }, { type: 'mcp_toolset', mcp_server_name: 'docs' }],
        mcp_servers: [{ type: 'url', name: 'docs', url: 'https://mcp.example.com/sse' }],
      });
      const session = await newSession({ agent: tooled.id });
      expect(session.agent).toEqual(snapshotOf(tooled) as never);
      expectError(await api('POST', `/v1/sessions/${session.id}`, { body: { agent: { mcp_servers: [] } } }), 400, 'invalid_request_error', 'agent.mcp_servers', 'docs');
      expectError(await api('POST', `/v1/sessions/${session.id}`, { body: { agent: { tools: [{ type: 'mcp_toolset', mcp_server_name: 'nope' }] } } }), 400, 'invalid_request_error', 'agent.tools.0.mcp_server_name');
      // Issue 24: the MCP URL rule is the catalog's one rule (the metadata address was accepted).
      expectError(
        await api('POST', `/v1/sessions/${session.id}`, { body: { agent: { mcp_servers: [{ type: 'url', name: 'docs', url: 'https://169.254.169.254/' }] } } }),
        400,
        'invalid_request_error',
        'agent.mcp_servers.0.url',
      );
      // Replaced whole, resolved as the catalog resolves an agent's: the same request gives the agent's own form.
      const replaced = await client.beta.sessions.update(session.id, {
        agent: { tools: [{ type: 'mcp_toolset', mcp_server_name: 'docs' }, { type: 'agent_toolset_20260401', default_config: { enabled: false } }] },
      });
      expect(replaced.agent.tools).toEqual([
        tooled.tools[1]!,
        { ...tooled.tools[0]!, default_config: { enabled: false, permission_policy: { type: 'always_allow' } } } as never,
      ]);
      expect(replaced.agent.mcp_servers).toEqual(tooled.mcp_servers);
      const cleared = await client.beta.sessions.update(session.id, { agent: { tools: [], mcp_servers: [] } });
      expect([cleared.agent.tools, cleared.agent.mcp_servers]).toEqual([[], []]);
      expect(await client.beta.agents.retrieve(tooled.id)).toEqual(tooled);

      const helper = await client.beta.agents.create({ name: 'helper', model: MODELS.priced, system: 'Help.' });
      const lead = await client.beta.agents.create({
        name: 'lead',
        model: MODELS.priced,
        multiagent: { type: 'coordinator', agents: [helper.id, { type: 'self' }] },
      });
      const team = await newSession({ agent: lead.id });
      expectSdkShape(team, 'BetaManagedAgentsSession');
      const { multiagent: _none, ...helperThread } = snapshotOf(helper);
      const { multiagent: _roster, ...leadThread } = snapshotOf(lead);
      expect(team.agent.multiagent).toEqual({ type: 'coordinator', agents: [helperThread, leadThread] } as never);
    });

    test('budget rules: budget_create_only, budget_not_raised, replace and remove', async () => {
      const budget = (amount: string) => ({ type: 'limit' as const, max_list_cost: { currency: 'USD' as const, amount } });
      const uncapped = await newSession();
      expectError(await api('POST', `/v1/sessions/${uncapped.id}`, { body: { budget: budget('900') } }), 400, 'invalid_request_error', 'budget', 'budget_create_only');
      const capped = await newSession({ budget: budget('900') });
      expect(capped.budget).toEqual(budget('900'));
      expect((await client.beta.sessions.update(capped.id, { budget: budget('1200') })).budget).toEqual(budget('1200'));
      expect((await client.beta.sessions.update(capped.id, { budget: budget('100') })).budget).toEqual(budget('100'));
      // Nothing consumed yet: a ceiling of 0 is at the consumed cost.
      expectError(await api('POST', `/v1/sessions/${capped.id}`, { body: { budget: budget('0') } }), 400, 'invalid_request_error', 'budget', 'budget_not_raised');
      expect((await client.beta.sessions.update(capped.id, { budget: null })).budget).toBeNull();
      expectError(await api('POST', `/v1/sessions/${capped.id}`, { body: { budget: budget('900') } }), 400, 'invalid_request_error', 'budget_create_only');
    });

    test('archive: one-way, refuses every change after, listed only with include_archived', async () => {
      const session = await newSession({ resources: [repository] });
      const archived = await client.beta.sessions.archive(session.id);
      expect(archived.archived_at).not.toBeNull();
      expectSdkShape(archived, 'BetaManagedAgentsSession');
      expect(await client.beta.sessions.archive(session.id)).toEqual(archived);
      const resourceId = (session.resources[0] as { id: string }).id;
      const refused = 'is archived and cannot be';
      expectError(await api('POST', `/v1/sessions/${session.id}`, { body: { title: 'x' } }), 400, 'invalid_request_error', refused);
      expectError(await api('POST', `/v1/sessions/${session.id}/resources`, { body: { type: 'file', file_id: (await uploadFile(api)).id } }), 400, 'invalid_request_error', refused);
      expectError(await api('POST', `/v1/sessions/${session.id}/resources/${resourceId}`, { body: { authorization_token: 'new' } }), 400, 'invalid_request_error', refused);
      expectError(await api('DELETE', `/v1/sessions/${session.id}/resources/${resourceId}`), 400, 'invalid_request_error', refused);
      const live: string[] = [];
      for await (const s of client.beta.sessions.list({ limit: 100 })) live.push(s.id);
      expect(live).not.toContain(session.id);
      const all: string[] = [];
      for await (const s of client.beta.sessions.list({ limit: 100, include_archived: true })) all.push(s.id);
      expect(all).toContain(session.id);
    });

    test('delete: for good, archived or not', async () => {
      const session = await newSession({ resources: [repository] });
      const deleted = await client.beta.sessions.delete(session.id);
      expect(deleted).toEqual({ id: session.id, type: 'session_deleted' });
      expectSdkShape(deleted, 'BetaManagedAgentsDeletedSession');
      expectError(await api('GET', `/v1/sessions/${session.id}`), 404, 'not_found_error');
      expectError(await api('DELETE', `/v1/sessions/${session.id}`), 404, 'not_found_error');
      const archived = await newSession();
      await client.beta.sessions.archive(archived.id);
      expect(await client.beta.sessions.delete(archived.id)).toEqual({ id: archived.id, type: 'session_deleted' });
    });

    test('list: every session through the bidirectional cursor, each in the SDK shape', async () => {
      const ids: string[] = [];
      for await (const s of client.beta.sessions.list({ limit: 2, order: 'asc' })) {
        expectSdkShape(s, 'BetaManagedAgentsSession');
        ids.push(s.id);
      }
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBeGreaterThan(3);
    });
  });

  describe('session resources', () => {
    test('list, add, retrieve, rotate a token, delete', async () => {
      const session = await newSession({ resources: [repository] });
      const page = await client.beta.sessions.resources.list(session.id);
      expect(page.data).toEqual(session.resources);
      expect(page.next_page).toBeNull();
      const [repo] = page.data as Array<{ id: string; updated_at: string }>;

      const file = await uploadFile(api);
      const added = await client.beta.sessions.resources.add(session.id, { type: 'file', file_id: file.id });
      expectSdkShape(added, 'BetaManagedAgentsFileResource');
      expect(added).toMatchObject({ type: 'file', file_id: file.id, mount_path: `/mnt/session/uploads/${file.id}` });
      expect(added.id).toMatch(/^sesrsc_/);
      expect(await client.beta.sessions.resources.retrieve(added.id, { session_id: session.id })).toEqual(added);
      // The repository kept the id it was shown with before the list first changed.
      expect(await client.beta.sessions.resources.retrieve(repo!.id, { session_id: session.id })).toEqual(repo as never);

      const rotated = await client.beta.sessions.resources.update(repo!.id, { session_id: session.id, authorization_token: 'ghp_rotated_token_value' });
      expectSdkShape(rotated, 'BetaManagedAgentsGitHubRepositoryResource');
      expect(JSON.stringify(rotated)).not.toContain('ghp_rotated_token_value');
      expect(rotated).toMatchObject({ id: repo!.id, type: 'github_repository' });
      expectError(await api('POST', `/v1/sessions/${session.id}/resources/${added.id}`, { body: { authorization_token: 'x' } }), 400, 'invalid_request_error', 'authorization_token');

      const all: string[] = [];
      for await (const r of client.beta.sessions.resources.list(session.id, { limit: 1 })) all.push((r as { id: string }).id);
      expect(all).toEqual([repo!.id, added.id]);

      const removed = await client.beta.sessions.resources.delete(added.id, { session_id: session.id });
      expect(removed).toEqual({ id: added.id, type: 'session_resource_deleted' });
      expectSdkShape(removed, 'BetaManagedAgentsDeleteSessionResource');
      expectError(await api('GET', `/v1/sessions/${session.id}/resources/${added.id}`), 404, 'not_found_error');
      expect((await client.beta.sessions.retrieve(session.id)).resources.map((r) => (r as { id: string }).id)).toEqual([repo!.id]);
    });

    test('add: the deployment rules (reference checked, mount paths unique), memory stores feed the memory_store_id filter', async () => {
      const session = await newSession({ resources: [repository] });
      expectError(await api('POST', `/v1/sessions/${session.id}/resources`, { body: { type: 'file', file_id: 'file_000000000000000000000000' } }), 404, 'not_found_error', 'file_id');
      const file = await uploadFile(api);
      expectError(await api('POST', `/v1/sessions/${session.id}/resources`, { body: { type: 'file', file_id: file.id, mount_path: '/workspace/widgets/' } }), 400, 'invalid_request_error', 'mount_path', 'already used');
      expectError(await api('POST', `/v1/sessions/${session.id}/resources`, { body: { type: 'file', file_id: file.id, mount_path: 'relative' } }), 400, 'invalid_request_error', 'mount_path');
      // Issue 24: only under the product's mount roots, checked after normalising.
      for (const mount_path of ['/', '/proc/self', '//proc/./self', '/mnt/session']) {
        expectError(await api('POST', `/v1/sessions/${session.id}/resources`, { body: { type: 'file', file_id: file.id, mount_path } }), 400, 'invalid_request_error', 'mount_path', 'under /workspace/ or /mnt/session/');
      }
      expectError(await api('POST', '/v1/sessions', { body: { agent: agent.id, environment_id: environmentId, resources: [{ ...repository, mount_path: '/proc/self' }] } }), 400, 'invalid_request_error', 'resources.0.mount_path');

      const store = await createMemoryStore(api);
      const mounted = expectOk(await api('POST', `/v1/sessions/${session.id}/resources`, { body: { type: 'memory_store', memory_store_id: store.id } }));
      expect(mounted).toMatchObject({ type: 'memory_store', memory_store_id: store.id, access: 'read_write', instructions: null });
      const byStore = async () => (await client.beta.sessions.list({ memory_store_id: store.id })).data.map((s) => s.id);
      expect(await byStore()).toEqual([session.id]);
      await client.beta.sessions.resources.delete(mounted.id, { session_id: session.id });
      expect(await byStore()).toEqual([]);
    });
  });

  describe('every route obeys tenant isolation and read-only keys', () => {
    test("another tenant's session and its resources are 404; a read-only key reads but never writes", async () => {
      const session = await newSession({ resources: [repository] });
      const resourceId = (session.resources[0] as { id: string }).id;
      const routes: Array<[string, string, unknown?]> = [
        ['GET', `/v1/sessions/${session.id}`],
        ['POST', `/v1/sessions/${session.id}`, { title: 'mine now' }],
        ['POST', `/v1/sessions/${session.id}/archive`],
        ['DELETE', `/v1/sessions/${session.id}`],
        ['GET', `/v1/sessions/${session.id}/resources`],
        ['POST', `/v1/sessions/${session.id}/resources`, { type: 'file', file_id: 'file_000000000000000000000000' }],
        ['GET', `/v1/sessions/${session.id}/resources/${resourceId}`],
        ['POST', `/v1/sessions/${session.id}/resources/${resourceId}`, { authorization_token: 'stolen' }],
        ['DELETE', `/v1/sessions/${session.id}/resources/${resourceId}`],
      ];
      for (const [method, path, body] of routes) expectError(await other(method, path, { body }), 404, 'not_found_error');
      for (const [method, path, body] of routes.filter(([m]) => m !== 'GET')) expectError(await readOnly(method, path, { body }), 403, 'permission_error');
      expectError(await readOnly('POST', '/v1/sessions', { body: { agent: agent.id, environment_id: environmentId } }), 403, 'permission_error');
      expect(expectOk(await readOnly('GET', `/v1/sessions/${session.id}`))).toEqual(await client.beta.sessions.retrieve(session.id));
      expect(await client.beta.sessions.retrieve(session.id)).toEqual(session);
    });
  });

  describe('sessions.created', () => {
    test('an API session is announced once, with how many initial events its log begins with', async () => {
      const empty = await newSession();
      const started = await newSession({ initial_events: [{ type: 'user.message', content: [{ type: 'text', text: 'Hi' }] }] } as never);
      const announced = (await publishedEvents(stack, 'deployments', 'sessions')).filter((m) => m.subject.endsWith('sessions.created'));
      const of = (id: string) => announced.filter((m) => m.data.data.session_id === id).map((m) => m.data.data.initial_events);
      expect([of(empty.id), of(started.id)]).toEqual([[0], [1]]);
    });
  });

  describe('fired sessions', () => {
    test("a deployment's fire creates its session through the same path: the full agent snapshot, resources with ids", async () => {
      const deployment = await client.beta.deployments.create({
        name: 'fired',
        agent: agent.id,
        environment_id: environmentId,
        initial_events: [{ type: 'user.message', content: [{ type: 'text', text: 'Go' }] }],
        resources: [repository],
      });
      const run = await client.beta.deployments.run(deployment.id);
      const session = await client.beta.sessions.retrieve(run.session_id!);
      expectSdkShape(session, 'BetaManagedAgentsSession');
      expect(session).toMatchObject({ deployment_id: deployment.id, title: null, initial_events: deployment.initial_events });
      expect(session.agent).toEqual(snapshotOf(agent) as never);
      expect((session.resources[0] as { id: string }).id).toMatch(/^sesrsc_/);
      expect(await client.beta.sessions.resources.list(session.id)).toMatchObject({ data: session.resources });
    });

    test('a session stored before snapshots were kept is shown with its version read from the catalog, its outcomes from its initial events', async () => {
      const session = await newSession({
        initial_events: [{ type: 'user.define_outcome', description: 'Done', rubric: { type: 'text', content: 'done' } }],
      });
      expect(session.outcome_evaluations).toHaveLength(1);
      await stack.service('deployments').database.db.update(sessions).set({ agent: null, outcomeEvaluations: null }).where(eq(sessions.id, session.id));
      expect(await client.beta.sessions.retrieve(session.id)).toEqual(session);
      expect((await client.beta.sessions.list({ limit: 100 })).data.find((s) => s.id === session.id)).toEqual(session);
    });
  });
});
