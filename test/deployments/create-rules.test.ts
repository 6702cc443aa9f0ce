/**
 * POST /v1/deployments: the interface's known error conditions and PRODUCT.md section 4 rules,
 * each through the real gateway and services.
 */
import { describe, expect, test } from 'bun:test';
import { sql } from 'drizzle-orm';
import { openSecret, unwrapDataKey } from '@shared/crypto/envelope';
import { parseMasterKeyRing } from '@shared/crypto/master-key-ring';
import { setLogSink } from '@shared/log/logger';
import { apiClient } from '../support/api';
import {
  archive,
  createAgent,
  createAgentVersion,
  createDeployment,
  createEnvironment,
  createMemoryStore,
  createVault,
  deploymentWorld,
  MODELS,
  remove,
  repository,
  uploadFile,
  useDeploymentStack,
  userMessage,
} from '../support/fixtures';
import { eventually } from '../support/eventually';
import { expectError, expectInvalidRequest } from '../support/expect';
import { publishedEvents } from '../support/streams';

const t = useDeploymentStack();

const post = (body: unknown) => t.api('POST', '/v1/deployments', { body });

const systemMessage = (text = 'Be brief') => ({ type: 'system.message', content: [{ type: 'text', text }] });
const outcome = (rubric: Record<string, unknown>) => ({ type: 'user.define_outcome', description: 'Write it', rubric });

describe('the response', () => {
  test('is the deployment exactly as the Resources table says, with resolved defaults', async () => {
    const file = await uploadFile(t.api);
    const store = await createMemoryStore(t.api);
    const vault = await createVault(t.api);
    const res = await post(
      t.world.body({
        description: null,
        vault_ids: [vault.id],
        metadata: { team: 'ops' },
        resources: [
          repository(),
          repository({ type: 'github_repository', url: 'https://github.com/acme/gadgets', checkout: { type: 'branch', name: 'main' } }),
          { type: 'file', file_id: file.id },
          { type: 'memory_store', memory_store_id: store.id },
          { type: 'memory_store', memory_store_id: store.id, access: 'read_only', instructions: 'Look, do not touch' },
        ],
        initial_events: [userMessage(), { type: 'user.define_outcome', description: 'Report', rubric: { type: 'text', content: 'Good' } }],
      }),
    );
    expect(res.status).toBe(200);
    const d = res.body;
    expect(Object.keys(d).sort()).toEqual(
      ['agent', 'archived_at', 'created_at', 'description', 'environment_id', 'id', 'initial_events', 'metadata', 'name', 'paused_reason', 'resources', 'schedule', 'status', 'type', 'updated_at', 'vault_ids'].sort(),
    );
    expect(d.type).toBe('deployment');
    expect(d.id).toMatch(/^depl_[0-9A-Za-z]{24}$/);
    expect(d.agent).toEqual({ type: 'agent', id: t.world.agent.id, version: t.world.agent.version });
    expect(d.environment_id).toBe(t.world.environment.id);
    expect(d.vault_ids).toEqual([vault.id]);
    expect(d.metadata).toEqual({ team: 'ops' });
    expect(d.description).toBeNull();
    expect(d.schedule).toBeNull();
    expect(d.status).toBe('active');
    expect(d.paused_reason).toBeNull();
    expect(d.archived_at).toBeNull();
    expect(d.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(d.updated_at).toBe(d.created_at);
    expect(d.resources).toEqual([
      { type: 'hosted_repository', url: 'https://github.com/acme/widgets.git', mount_path: '/workspace/widgets', checkout: null },
      { type: 'github_repository', url: 'https://github.com/acme/gadgets', mount_path: '/workspace/gadgets', checkout: { type: 'branch', name: 'main' } },
      { type: 'file', file_id: file.id, mount_path: `/mnt/session/uploads/${file.id}` },
      { type: 'memory_store', memory_store_id: store.id, access: 'read_write', instructions: null },
      { type: 'memory_store', memory_store_id: store.id, access: 'read_only', instructions: 'Look, do not touch' },
    ]);
    expect(d.initial_events[1]).toEqual({ type: 'user.define_outcome', description: 'Report', rubric: { type: 'text', content: 'Good' }, max_iterations: 3 });
    expect(JSON.stringify(d)).not.toContain('ghp_SECRET');
  });

  test('budget is absent when none is set (omitted or null) and echoed when set', async () => {
    const none = await createDeployment(t.api, t.world.body());
    expect('budget' in none).toBe(false);
    const nulled = await createDeployment(t.api, t.world.body({ budget: null, schedule: null, description: 'd' }));
    expect('budget' in nulled).toBe(false);
    const budget = { type: 'limit', max_list_cost: { currency: 'USD', amount: '2500' } };
    expect((await createDeployment(t.api, t.world.body({ budget }))).budget).toEqual(budget);
  });

  test('content blocks of every kind are accepted and echoed', async () => {
    const file = await uploadFile(t.api);
    const content = [
      { type: 'text', text: 'Look at these' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
      { type: 'image', source: { type: 'file', file_id: file.id } },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' }, title: 'T', context: null },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain' } },
      { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } },
      { type: 'document', source: { type: 'file', file_id: file.id } },
      { type: 'redacted' },
    ];
    const d = await createDeployment(t.api, t.world.body({ initial_events: [{ type: 'user.message', content }] }));
    expect(d.initial_events).toEqual([{ type: 'user.message', content }]);
  });
});

describe('request shape', () => {
  const cases: Array<[string, () => unknown, string]> = [
    ['unknown top-level property', () => t.world.body({ colour: 'blue' }), 'colour: unknown property'],
    ['unknown property in an event', () => t.world.body({ initial_events: [{ ...userMessage(), id: 'x' }] }), 'initial_events.0.id: unknown property'],
    ['unknown property in a content block', () => t.world.body({ initial_events: [{ type: 'user.message', content: [{ type: 'text', text: 'x', cache_control: {} }] }] }), 'initial_events.0.content.0.cache_control: unknown property'],
    ['unknown property in a source', () => t.world.body({ initial_events: [{ type: 'user.message', content: [{ type: 'image', source: { type: 'url', url: 'u', x: 1 } }] }] }), 'initial_events.0.content.0.source.x: unknown property'],
    ['unknown property in a resource', () => t.world.body({ resources: [repository({ branch: 'main' })] }), 'resources.0.branch: unknown property'],
    ['unknown property in a checkout', () => t.world.body({ resources: [repository({ checkout: { type: 'branch', name: 'm', x: 1 } })] }), 'resources.0.checkout.x: unknown property'],
    ['unknown property in the agent', () => t.world.body({ agent: { type: 'agent', id: 'a', extra: 1 } }), 'agent.extra: unknown property'],
    ['unknown property in the schedule', () => t.world.body({ schedule: { type: 'cron', expression: '* * * * *', timezone: 'UTC', x: 1 } }), 'schedule.x: unknown property'],
    ['unknown property in the budget amount', () => t.world.body({ budget: { type: 'limit', max_list_cost: { currency: 'USD', amount: '1', x: 1 } } }), 'budget.max_list_cost.x: unknown property'],
    ['missing name', () => ({ ...t.world.body(), name: undefined }), 'name: is required'],
    ['missing agent', () => ({ ...t.world.body(), agent: undefined }), 'agent:'],
    ['missing environment_id', () => ({ ...t.world.body(), environment_id: undefined }), 'environment_id: is required'],
    ['missing initial_events', () => ({ ...t.world.body(), initial_events: undefined }), 'initial_events: is required'],
    ['null name', () => t.world.body({ name: null }), 'name: must be a string'],
    ['unknown event type', () => t.world.body({ initial_events: [{ type: 'user.interrupt' }] }), 'initial_events.0:'],
    ['user.tool_result is not an initial event', () => t.world.body({ initial_events: [{ type: 'user.tool_result', tool_use_id: 'x' }] }), 'initial_events.0:'],
    ['image block in a system.message', () => t.world.body({ initial_events: [userMessage(), { type: 'system.message', content: [{ type: 'image', source: { type: 'url', url: 'u' } }] }] }), 'initial_events.1.content.0.'],
    ['unknown resource type', () => t.world.body({ resources: [{ type: 'volume' }] }), 'resources.0:'],
    ['repository without a token', () => t.world.body({ resources: [{ type: 'hosted_repository', url: 'https://github.com/a/b' }] }), 'resources.0.authorization_token: is required'],
    ['repository without a url', () => t.world.body({ resources: [{ type: 'hosted_repository', authorization_token: 't' }] }), 'resources.0.url: is required'],
    ['unknown checkout kind', () => t.world.body({ resources: [repository({ checkout: { type: 'tag', name: 'v1' } })] }), 'resources.0.checkout:'],
    ['memory store id without prefix', () => t.world.body({ resources: [{ type: 'memory_store', memory_store_id: 'store_1' }] }), 'resources.0.memory_store_id:'],
    ['memory store access outside the enum', () => t.world.body({ resources: [{ type: 'memory_store', memory_store_id: 'memstore_x', access: 'write' }] }), 'resources.0.access:'],
    ['schedule kind other than cron', () => t.world.body({ schedule: { type: 'interval', expression: '* * * * *', timezone: 'UTC' } }), 'schedule'],
    ['schedule without timezone', () => t.world.body({ schedule: { type: 'cron', expression: '* * * * *' } }), 'schedule.timezone: is required'],
    ['schedule without expression', () => t.world.body({ schedule: { type: 'cron', timezone: 'UTC' } }), 'schedule.expression: is required'],
    ['budget kind other than limit', () => t.world.body({ budget: { type: 'soft', max_list_cost: { currency: 'USD', amount: '1' } } }), 'budget'],
    ['budget amount as a number', () => t.world.body({ budget: { type: 'limit', max_list_cost: { currency: 'USD', amount: 100 } } }), 'budget.max_list_cost.amount:'],
    ['budget amount negative', () => t.world.body({ budget: { type: 'limit', max_list_cost: { currency: 'USD', amount: '-1' } } }), 'budget.max_list_cost.amount:'],
    ['budget amount decimal', () => t.world.body({ budget: { type: 'limit', max_list_cost: { currency: 'USD', amount: '1.50' } } }), 'budget.max_list_cost.amount:'],
    ['budget currency lowercase', () => t.world.body({ budget: { type: 'limit', max_list_cost: { currency: 'usd', amount: '1' } } }), 'budget.max_list_cost.currency:'],
    ['metadata value not a string', () => t.world.body({ metadata: { a: 1 } }), 'metadata.a:'],
    ['agent version not an integer', () => t.world.body({ agent: { type: 'agent', id: 'a', version: 1.5 } }), 'agent.version:'],
    ['agent object of another type', () => t.world.body({ agent: { type: 'model', id: 'a' } }), 'agent'],
    ['vault id not a string', () => t.world.body({ vault_ids: [1] }), 'vault_ids.0:'],
    ['body is an array', () => [t.world.body()], 'body:'],
  ];
  for (const [name, body, message] of cases) {
    test(`${name}: 400 naming the path`, async () => {
      expectInvalidRequest(await post(body()), message);
    });
  }

  test('malformed JSON: 400', async () => {
    const res = await t.api('POST', '/v1/deployments', { rawBody: '{"name": "x",', headers: { 'content-type': 'application/json' } });
    expectError(res, 400, 'invalid_request_error', 'malformed JSON');
  });
});

describe('schedule', () => {
  const rejected: Array<[string, string, string]> = [
    ['L', '0 9 L * *', 'schedule.expression:'],
    ['W', '0 9 15W * *', 'schedule.expression:'],
    ['#', '0 9 * * 1#2', 'schedule.expression:'],
    ['?', '0 9 ? * 1', 'schedule.expression:'],
    ['@daily', '@daily', 'schedule.expression:'],
    ['seconds field', '0 0 9 * * *', 'schedule.expression:'],
    ['year field', '0 9 * * * 2027', 'schedule.expression:'],
    ['four fields', '0 9 * *', 'schedule.expression:'],
    ['minute out of range', '60 9 * * *', 'schedule.expression:'],
    ['day-of-week 8', '0 9 * * 8', 'schedule.expression:'],
    ['never fires', '0 9 31 2 *', 'schedule.expression:'],
  ];
  for (const [name, expression, path] of rejected) {
    test(`extended or invalid cron (${name}): 400 ${path} saying what is wrong`, async () => {
      const res = await post(t.world.body({ schedule: { type: 'cron', expression, timezone: 'UTC' } }));
      expectError(res, 400, 'invalid_request_error');
      expect(res.body.error.message).toStartWith(path);
      expect(res.body.error.message.length).toBeGreaterThan(path.length + 5);
    });
  }
  for (const timezone of ['Mars/Olympus_Mons', 'america/new_york', 'EST+5', ' UTC']) {
    test(`invalid timezone ${JSON.stringify(timezone)}: 400 naming schedule.timezone`, async () => {
      const res = await post(t.world.body({ schedule: { type: 'cron', expression: '0 9 * * 1-5', timezone } }));
      expectError(res, 400, 'invalid_request_error');
      expect(res.body.error.message).toStartWith('schedule.timezone:');
    });
  }
  for (const [expression, timezone] of [
    ['0 9 * * 1-5', 'America/New_York'],
    ['*/15 8-18 * JAN-MAR mon-fri', 'Europe/London'],
    ['0 0 1,15 * 7', 'US/Eastern'],
    ['30 2 * * 0', 'UTC'],
  ]) {
    test(`valid cron ${expression} in ${timezone}: 5 upcoming runs, ascending, in the future`, async () => {
      const d = await createDeployment(t.api, t.world.body({ schedule: { type: 'cron', expression, timezone } }));
      expect(d.schedule.type).toBe('cron');
      expect(d.schedule.expression).toBe(expression);
      expect(d.schedule.timezone).toBe(timezone);
      expect(d.schedule.last_run_at).toBeNull();
      const runs: string[] = d.schedule.upcoming_runs_at;
      expect(runs).toHaveLength(5);
      expect([...runs].sort()).toEqual(runs);
      expect(Date.parse(runs[0])).toBeGreaterThan(Date.parse(d.created_at));
    });
  }
});

describe('agent resolution', () => {
  test('a string pins the latest version; an object pins the version given', async () => {
    const agent = await createAgent(t.api);
    const v2 = await createAgentVersion(t.api, agent);
    expect(v2.version).toBe(2);
    expect((await createDeployment(t.api, t.world.body({ agent: agent.id }))).agent).toEqual({ type: 'agent', id: agent.id, version: 2 });
    expect((await createDeployment(t.api, t.world.body({ agent: { type: 'agent', id: agent.id } }))).agent.version).toBe(2);
    expect((await createDeployment(t.api, t.world.body({ agent: { type: 'agent', id: agent.id, version: 1 } }))).agent.version).toBe(1);
  });

  test('an agent that does not exist: 404', async () => {
    expectError(await post(t.world.body({ agent: 'agent_doesnotexist000000000000' })), 404, 'not_found_error', 'agent_doesnotexist');
    expectError(await post(t.world.body({ agent: { type: 'agent', id: 'agent_nope' } })), 404, 'not_found_error');
  });

  test('a version that does not exist: 404', async () => {
    expectError(await post(t.world.body({ agent: { type: 'agent', id: t.world.agent.id, version: 99 } })), 404, 'not_found_error', '99');
  });

  test('an archived agent: 400 naming the agent', async () => {
    const agent = await createAgent(t.api);
    await archive(t.api, 'agent', agent.id);
    expectError(await post(t.world.body({ agent: agent.id })), 400, 'invalid_request_error', agent.id, 'archived');
  });
});

describe('references must exist in the tenant and not be archived', () => {
  test('environment: 404 missing, 400 archived', async () => {
    expectError(await post(t.world.body({ environment_id: 'env_missing' })), 404, 'not_found_error', 'environment_id', 'env_missing');
    const env = await createEnvironment(t.api);
    await archive(t.api, 'environment', env.id);
    expectError(await post(t.world.body({ environment_id: env.id })), 400, 'invalid_request_error', 'environment_id', env.id);
  });

  test('vaults: 404 missing, 400 archived', async () => {
    const ok = await createVault(t.api);
    expectError(await post(t.world.body({ vault_ids: [ok.id, 'vlt_missing'] })), 404, 'not_found_error', 'vault_ids.1', 'vlt_missing');
    const archived = await createVault(t.api);
    await archive(t.api, 'vault', archived.id);
    expectError(await post(t.world.body({ vault_ids: [archived.id] })), 400, 'invalid_request_error', 'vault_ids.0', archived.id);
  });

  test('resource files: 404 missing or deleted', async () => {
    expectError(await post(t.world.body({ resources: [{ type: 'file', file_id: 'file_missing' }] })), 404, 'not_found_error', 'resources.0.file_id');
    const file = await uploadFile(t.api);
    await remove(t.api, 'file', file.id);
    expectError(await post(t.world.body({ resources: [{ type: 'file', file_id: file.id }] })), 404, 'not_found_error', file.id);
  });

  test('rubric files: 404 missing; an existing one is accepted', async () => {
    expectError(
      await post(t.world.body({ initial_events: [outcome({ type: 'file', file_id: 'file_missing' })] })),
      404,
      'not_found_error',
      'initial_events.0.rubric.file_id',
    );
    const file = await uploadFile(t.api, 'rubric.md', '# Rubric');
    const d = await createDeployment(t.api, t.world.body({ initial_events: [outcome({ type: 'file', file_id: file.id })] }));
    expect(d.initial_events[0].rubric).toEqual({ type: 'file', file_id: file.id });
  });

  test('files in image and document blocks: 404 naming the block, missing or deleted; existing ones are accepted', async () => {
    const image = (file_id: string) => ({ type: 'image', source: { type: 'file', file_id } });
    const document = (file_id: string) => ({ type: 'document', source: { type: 'file', file_id } });
    const message = (...blocks: unknown[]) => ({ type: 'user.message', content: [{ type: 'text', text: 'See attached' }, ...blocks] });
    expectError(
      await post(t.world.body({ initial_events: [message(image('file_missing'))] })),
      404,
      'not_found_error',
      'initial_events.0.content.1.source.file_id', 'file_missing',
    );
    const file = await uploadFile(t.api, 'report.txt');
    expectError(
      await post(t.world.body({ initial_events: [message(image(file.id)), message(document(file.id), document('file_gone'))] })),
      404,
      'not_found_error',
      'initial_events.1.content.2.source.file_id', 'file_gone',
    );
    const gone = await uploadFile(t.api, 'gone.txt');
    await remove(t.api, 'file', gone.id);
    expectError(await post(t.world.body({ initial_events: [message(document(gone.id))] })), 404, 'not_found_error', 'initial_events.0.content.1.source.file_id', gone.id);

    // The same file in a resource, a block and a rubric is one reference, asked about once.
    const events = [message(image(file.id), document(file.id)), outcome({ type: 'file', file_id: file.id })];
    const d = await createDeployment(t.api, t.world.body({ initial_events: events, resources: [{ type: 'file', file_id: file.id }] }));
    expect(d.initial_events[0].content.slice(1)).toEqual([image(file.id), document(file.id)]);
    // Base64 and URL sources refer to no file.
    const inline = { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } };
    expect((await createDeployment(t.api, t.world.body({ initial_events: [message(inline)] }))).initial_events[0].content[1]).toEqual(inline);
  });

  test('memory stores: 404 missing, 400 archived', async () => {
    expectError(
      await post(t.world.body({ resources: [{ type: 'memory_store', memory_store_id: 'memstore_missing' }] })),
      404,
      'not_found_error',
      'resources.0.memory_store_id',
    );
    const store = await createMemoryStore(t.api);
    await archive(t.api, 'memory_store', store.id);
    expectError(
      await post(t.world.body({ resources: [{ type: 'memory_store', memory_store_id: store.id }] })),
      400,
      'invalid_request_error',
      'resources.0.memory_store_id', store.id,
    );
  });

  test("another tenant's agent, environment, vault, file and memory store: 404", async () => {
    const other = apiClient(t.stack.url, (await t.stack.createKey()).secret);
    const theirs = await deploymentWorld(other);
    const [vault, file, store] = await Promise.all([createVault(other), uploadFile(other), createMemoryStore(other)]);
    expectError(await post(t.world.body({ agent: theirs.agent.id })), 404, 'not_found_error');
    expectError(await post(t.world.body({ environment_id: theirs.environment.id })), 404, 'not_found_error');
    expectError(await post(t.world.body({ vault_ids: [vault.id] })), 404, 'not_found_error');
    expectError(await post(t.world.body({ resources: [{ type: 'file', file_id: file.id }] })), 404, 'not_found_error');
    expectError(await post(t.world.body({ resources: [{ type: 'memory_store', memory_store_id: store.id }] })), 404, 'not_found_error');
  });
});

describe('system.message', () => {
  test('accepted once, last, right after a user.message, on a model that supports it', async () => {
    const d = await createDeployment(t.api, t.world.body({ initial_events: [userMessage(), systemMessage()] }));
    expect(d.initial_events[1]).toEqual(systemMessage());
  });
  const misplaced: Array<[string, () => unknown[], string]> = [
    ['two of them', () => [userMessage(), systemMessage(), userMessage(), systemMessage()], 'initial_events.3'],
    ['not the final event', () => [userMessage(), systemMessage(), userMessage()], 'initial_events.1'],
    ['the first event', () => [systemMessage()], 'initial_events.0'],
    ['after a define_outcome', () => [userMessage(), outcome({ type: 'text', content: 'c' }), systemMessage()], 'initial_events.2'],
  ];
  for (const [name, events, path] of misplaced) {
    test(`${name}: 400`, async () => {
      const res = await post(t.world.body({ initial_events: events() }));
      expectError(res, 400, 'invalid_request_error', 'system.message');
      expect(res.body.error.message).toStartWith(path);
    });
  }
  test("rejected when the agent's model does not accept system messages", async () => {
    const agent = await createAgent(t.api, { model: MODELS.noSystemMessages });
    const res = await post(t.world.body({ agent: agent.id, initial_events: [userMessage(), systemMessage()] }));
    expectError(res, 400, 'invalid_request_error', 'initial_events.1', MODELS.noSystemMessages);
  });
});

describe('budget', () => {
  const budget = { type: 'limit', max_list_cost: { currency: 'USD', amount: '1000' } };
  test("rejected when the agent's model has no public list price", async () => {
    const agent = await createAgent(t.api, { model: MODELS.unpriced });
    expectError(await post(t.world.body({ agent: agent.id, budget })), 400, 'invalid_request_error', 'budget', MODELS.unpriced);
    // Without a budget the same agent deploys fine.
    expect((await post(t.world.body({ agent: agent.id }))).status).toBe(200);
  });
  test('accepted on a priced model, 0 included', async () => {
    expect((await post(t.world.body({ budget }))).status).toBe(200);
    expect((await post(t.world.body({ budget: { type: 'limit', max_list_cost: { currency: 'USD', amount: '0' } } }))).status).toBe(200);
  });
});

describe('mount paths', () => {
  const cases: Array<[string, () => unknown[], string]> = [
    ['two explicit paths', () => [repository({ mount_path: '/workspace/data' }), repository({ url: 'https://github.com/a/other', mount_path: '/workspace/data' })], 'resources.1.mount_path'],
    ['a default and an explicit path', () => [repository(), { type: 'file', file_id: 'file_x', mount_path: '/workspace/widgets' }], 'resources.1.mount_path'],
    ['two default repository paths', () => [repository(), repository({ url: 'https://gitlab.com/other/widgets' })], 'resources.1.mount_path'],
    ['the same path spelled with a trailing slash', () => [repository({ mount_path: '/workspace/data/' }), repository({ mount_path: '/workspace/data' })], 'resources.1.mount_path'],
  ];
  for (const [name, resources, path] of cases) {
    test(`duplicate: ${name}: 400`, async () => {
      const res = await post(t.world.body({ resources: resources() }));
      expectError(res, 400, 'invalid_request_error');
      expect(res.body.error.message).toStartWith(path);
    });
  }
  test('the same file twice at different paths is fine', async () => {
    const file = await uploadFile(t.api);
    const d = await createDeployment(t.api, t.world.body({ resources: [{ type: 'file', file_id: file.id }, { type: 'file', file_id: file.id, mount_path: '/mnt/session/a' }] }));
    expect(d.resources.map((r: any) => r.mount_path)).toEqual([`/mnt/session/uploads/${file.id}`, '/mnt/session/a']);
  });
  test('a repository URL with no name needs a mount path', async () => {
    expectError(await post(t.world.body({ resources: [repository({ url: 'https://github.com/' })] })), 400, 'invalid_request_error', 'resources.0');
    expect((await post(t.world.body({ resources: [repository({ url: 'https://github.com/', mount_path: '/workspace/src' })] }))).status).toBe(200);
  });
});

describe('the repository token', () => {
  test('is stored sealed under the deployment data key, never in clear, never returned, never logged', async () => {
    const token = `ghp_${crypto.randomUUID()}`;
    const lines: string[] = [];
    const previous = setLogSink((line) => lines.push(line));
    let d: any;
    try {
      d = await createDeployment(t.api, t.world.body({ resources: [repository({ mount_path: '/workspace/a' }), repository({ authorization_token: token, mount_path: '/workspace/b' })] }));
    } finally {
      setLogSink(previous);
    }
    expect(JSON.stringify(d)).not.toContain(token);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(token);

    const { db } = t.stack.service('deployments').database;
    const [rows] = (await db.execute(sql`SELECT * FROM deployments WHERE id = ${d.id}`)) as unknown as [any[]];
    const row = rows[0];
    expect(JSON.stringify(row)).not.toContain(token);
    const [secrets] = (await db.execute(
      sql`SELECT resource_index, sealed FROM deployment_secrets WHERE deployment_id = ${d.id} ORDER BY resource_index`,
    )) as unknown as [Array<{ resource_index: number; sealed: string }>];
    expect(secrets.map((s) => s.resource_index)).toEqual([0, 1]);
    expect(secrets[1].sealed).not.toContain(token);

    // Opens only with the master key ring, the deployment's own data key and the right position.
    const ring = parseMasterKeyRing({ NODE_ENV: 'test' });
    const dataKey = unwrapDataKey(ring, { keyId: row.data_key_id, wrapped: row.data_key_wrapped }, d.id);
    expect(openSecret(dataKey, secrets[1].sealed, `${d.id}/resources/1`)).toBe(token);
    expect(() => openSecret(dataKey, secrets[1].sealed, `${d.id}/resources/0`)).toThrow();
  });
});

describe('events', () => {
  test('creation announces deployments.created with revision 1 (through the outbox)', async () => {
    const d = await createDeployment(t.api, t.world.body({ schedule: { type: 'cron', expression: '0 9 * * *', timezone: 'Europe/Paris' } }));
    // Read from the stream once the outbox is empty: the relay publishes a row and deletes it at
    // once after the commit, so the outbox itself may already have let it go (this raced).
    const events = (await publishedEvents(t.stack, 'deployments', 'deployments')).map((m) => m.data);
    const mine = events.find((e) => e.data.deployment_id === d.id);
    expect(mine).toBeDefined();
    expect(mine.type).toBe('deployments.created');
    expect(mine.data).toEqual({
      deployment_id: d.id,
      organization_id: expect.stringMatching(/^org_/),
      workspace_id: expect.stringMatching(/^wrkspc_/),
      schedule: { expression: '0 9 * * *', timezone: 'Europe/Paris' },
      status: 'active',
      archived: false,
      revision: 1,
    });
  });

  test('a rejected request records nothing', async () => {
    const { db } = t.stack.service('deployments').database;
    const count = async () =>
      Number(((await db.execute(sql`SELECT COUNT(*) AS n FROM outbox`)) as unknown as [Array<{ n: number }>])[0][0].n);
    // The relay deletes what it published, so earlier tests' rows leave while this one runs: start
    // from an empty outbox, which only a recorded event could fill again.
    await eventually('the outbox to drain', async () => ((await count()) === 0 ? true : undefined));
    await post(t.world.body({ environment_id: 'env_missing' }));
    expect(await count()).toBe(0);
  });
});

describe('errors part', () => {
  test('no credentials: 401; read-only key: 403', async () => {
    expectError(await apiClient(t.stack.url)('POST', '/v1/deployments', { body: t.world.body() }), 401, 'authentication_error');
    const readOnly = apiClient(t.stack.url, (await t.stack.createKey({ scope: 'read_only' })).secret);
    expectError(await readOnly('POST', '/v1/deployments', { body: t.world.body() }), 403, 'permission_error');
  });
  test('deployments service down: 503 overloaded_error', async () => {
    await t.stack.stopService('deployments');
    try {
      expectError(await post(t.world.body()), 503, 'overloaded_error');
    } finally {
      await t.stack.startService('deployments');
    }
    expect((await post(t.world.body())).status).toBe(200);
  });
});
