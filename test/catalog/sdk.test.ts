/**
 * The reference client against the catalog's agents, models and environments: the unchanged SDK,
 * pointed at the gateway, creates a realistic agent (tools of every kind, an MCP server, skills, a
 * multiagent roster), reads it back in the SDK's declared shapes, auto-paginates its versions
 * newest first, reads models with every field `BetaModelInfo` declares, and walks a `self_hosted`
 * environment through create, retrieve, list and update.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { describeEachSdk, type SdkUnderTest } from '../support/sdk';
import type { AgentCreateParams } from '@anthropic-ai/sdk/resources/beta/agents/agents';
import type { BetaEnvironment, EnvironmentCreateParams } from '@anthropic-ai/sdk/resources/beta/environments/environments';
import { beforeAll, describe, expect, test } from 'bun:test';
import { MODELS, useStack } from '../support/fixtures';
import { expectSdkShape } from '../support/sdk-shape';
import { sdkFailure } from '../support/expect';

/** The SDK version the current block runs under (each block sets it in its beforeAll). */
let sdk: SdkUnderTest;

const t = useStack({ services: ['catalog'] });
let client: Anthropic;
let otherClient: Anthropic;


/** Written against the SDK's own params type, so a field it does not know fails to compile. */
const triage = (helperId: string): AgentCreateParams => ({
  name: 'triage',
  description: 'Sorts incoming incidents.',
  model: { id: MODELS.priced, effort: 'medium' },
  system: 'Be terse.',
  metadata: { team: 'ops' },
  tools: [
    {
      type: 'agent_toolset_20260401',
      default_config: { enabled: true, permission_policy: { type: 'always_allow' } },
      configs: [
        { name: 'bash', permission_policy: { type: 'always_ask' } },
        { name: 'web_search', allowed_domains: ['status.example.com'] },
        { name: 'web_fetch', url_sources: { user_input: 'all', client_tool_results: { type: 'except', tools: [{ type: 'tool_reference', name: 'page_oncall' }] } } },
      ],
    },
    { type: 'mcp_toolset', mcp_server_name: 'pagerduty', configs: [{ name: 'resolve_incident', enabled: false }] },
    {
      type: 'custom',
      name: 'page_oncall',
      description: 'Pages the on-call engineer.',
      input_schema: { type: 'object', properties: { severity: { type: 'string', enum: ['low', 'high'] } }, required: ['severity'] },
    },
  ],
  mcp_servers: [{ type: 'url', name: 'pagerduty', url: 'https://mcp.pagerduty.example.com/mcp' }],
  skills: [{ type: 'anthropic', skill_id: 'pdf', version: '20251013' }],
  multiagent: { type: 'coordinator', agents: [helperId, { type: 'self' }] },
});

describeEachSdk('the SDK against the catalog', (under) => {
  beforeAll(async () => {
    sdk = under;
    client = new sdk.Anthropic({ apiKey: (await t.stack.createKey()).secret, baseURL: t.stack.url, maxRetries: 0 });
    otherClient = new sdk.Anthropic({ apiKey: (await t.stack.createKey()).secret, baseURL: t.stack.url, maxRetries: 0 });
  });

  describe('agents through the SDK', () => {
    test('a realistic agent round-trips in the declared shapes; versions list newest first', async () => {
      const helper = await client.beta.agents.create({ name: 'helper', model: MODELS.priced });
      const agent = await client.beta.agents.create(triage(helper.id));
      expectSdkShape(agent, 'BetaManagedAgentsAgent');
      expect(agent.tools).toHaveLength(3);
      expect(agent.tools[0]).toMatchObject({ type: 'agent_toolset_20260401', default_config: { enabled: true, permission_policy: { type: 'always_allow' } } });
      expect(agent.tools[1]).toEqual({
        type: 'mcp_toolset',
        mcp_server_name: 'pagerduty',
        configs: [{ name: 'resolve_incident', enabled: false, permission_policy: { type: 'always_ask' } }],
        default_config: { enabled: true, permission_policy: { type: 'always_ask' } },
      });
      expect(agent.skills).toEqual([{ type: 'anthropic', skill_id: 'pdf', version: '20251013' }]);
      expect(agent.multiagent).toEqual({
        type: 'coordinator',
        agents: [
          { type: 'agent', id: helper.id, version: 1 },
          { type: 'agent', id: agent.id, version: 1 },
        ],
      });
      expect(await client.beta.agents.retrieve(agent.id)).toEqual(agent);

      // Dropping the server takes its toolset with it; the custom tool stays (web_fetch's url_sources names it).
      const v2 = await client.beta.agents.update(agent.id, { version: 1, skills: null, tools: [agent.tools[0], agent.tools[2]] as never, mcp_servers: [] });
      expectSdkShape(v2, 'BetaManagedAgentsAgent');
      expect(v2).toMatchObject({ version: 2, skills: [], mcp_servers: [] });
      const v3 = await client.beta.agents.update(agent.id, { version: 2, system: 'Be kind.' });
      // An update that changes nothing adds no version.
      expect((await client.beta.agents.update(agent.id, { version: 3, system: 'Be kind.' })).version).toBe(3);

      const versions = [];
      for await (const version of client.beta.agents.versions.list(agent.id, { limit: 2 })) versions.push(version);
      expect(versions.map((v) => v.version)).toEqual([3, 2, 1]);
      versions.forEach((v) => expectSdkShape(v, 'BetaManagedAgentsAgent'));
      expect(versions[0]).toEqual(v3);
      expect(versions[2]).toEqual(agent);
      expect(await client.beta.agents.retrieve(agent.id, { version: 1 })).toEqual(agent);

      const page = await client.beta.agents.versions.list(agent.id, { limit: 1 });
      expect(page.data.map((v) => v.version)).toEqual([3]);
      expect(page.hasNextPage()).toBe(true);
      expect((await page.getNextPage()).data.map((v) => v.version)).toEqual([2]);

      expect(await sdkFailure(otherClient.beta.agents.versions.list(agent.id))).toBeInstanceOf(sdk.Anthropic.NotFoundError);
    });

    test('validation errors reach the SDK as 400s naming the field', async () => {
      const err = await sdkFailure(
        client.beta.agents.create({ name: 'bad', model: MODELS.priced, tools: [{ type: 'mcp_toolset', mcp_server_name: 'nowhere' }] }),
      );
      expect(err).toBeInstanceOf(sdk.Anthropic.BadRequestError);
      expect(err.error.error.message).toContain('tools.0.mcp_server_name: no MCP server named "nowhere"');
    });
  });

  describe('models through the SDK', () => {
    test('list and retrieve carry every field BetaModelInfo declares, plus list_price and supports_system_messages', async () => {
      const models = [];
      for await (const model of client.beta.models.list({ limit: 5 })) models.push(model);
      // Every model the SDK's agent model enum names is in the catalog.
      const enumIds = [
        'claude-haiku-5-5', 'claude-sonnet-5-5', 'claude-opus-5-5', 'claude-fable-5-1', 'claude-sonnet-5', 'claude-fable-5', 'claude-opus-5',
        'claude-opus-4-8', 'claude-opus-4-7', 'claude-opus-4-6', 'claude-sonnet-4-6', 'claude-haiku-4-5', 'claude-haiku-4-5-20251001',
        'claude-opus-4-5', 'claude-opus-4-5-20251101', 'claude-sonnet-4-5', 'claude-sonnet-4-5-20250929',
      ];
      expect(models.map((m) => m.id)).toEqual(expect.arrayContaining(enumIds));
      const createdAt = models.map((m) => m.created_at);
      expect(createdAt).toEqual([...createdAt].sort().reverse());
      for (const model of models) {
        expectSdkShape(model, 'BetaModelInfo');
        expect(model).toHaveProperty('list_price');
        expect(typeof (model as unknown as { supports_system_messages: unknown }).supports_system_messages).toBe('boolean');
      }
      const one = await client.beta.models.retrieve(MODELS.priced);
      expectSdkShape(one, 'BetaModelInfo');
      expect(one).toMatchObject({ id: MODELS.priced, lifecycle: 'active', line: 'opus', type: 'model' });
      expect(await client.beta.models.list({ lifecycle: ['retired'] })).toMatchObject({ data: [] });
      expect(await sdkFailure(client.beta.models.retrieve('claude-nope'))).toBeInstanceOf(sdk.Anthropic.NotFoundError);
    });
  });

  describe('environments through the SDK', () => {
    test('a self_hosted environment is created, retrieved, listed and updated in the declared shapes', async () => {
      /** Written against the SDK's own params type, so the config is the one it declares. */
      const params: EnvironmentCreateParams = { name: 'own workers', description: 'rack 4', config: { type: 'self_hosted' }, metadata: { site: 'lon' } };
      const env = await client.beta.environments.create(params);
      expectSdkShape(env, 'BetaEnvironment');
      expect(env).toMatchObject({ type: 'environment', name: 'own workers', description: 'rack 4', config: { type: 'self_hosted' }, metadata: { site: 'lon' } });
      expect(await client.beta.environments.retrieve(env.id)).toEqual(env);

      const listed: BetaEnvironment[] = [];
      for await (const e of client.beta.environments.list({ limit: 1 })) listed.push(e);
      expect(listed.find((e) => e.id === env.id)).toEqual(env);
      listed.forEach((e) => expectSdkShape(e, 'BetaEnvironment'));

      // Omitting config keeps it; a config replaces the whole config, of the same type only.
      const renamed = await client.beta.environments.update(env.id, { name: 'our workers', metadata: { site: null } });
      expectSdkShape(renamed, 'BetaEnvironment');
      expect(renamed).toMatchObject({ name: 'our workers', config: { type: 'self_hosted' }, metadata: {} });
      const switched = await sdkFailure(client.beta.environments.update(env.id, { config: { type: 'cloud' } }));
      expect(switched).toBeInstanceOf(sdk.version === '1.14.0' ? sdk.Anthropic.Beta.Environments.BetaInvalidConfigTypeChangeError : sdk.Anthropic.BadRequestError);
      const back = await client.beta.environments.update(env.id, { config: { type: 'self_hosted' } });
      expectSdkShape(back, 'BetaEnvironment');
      expect(back.config).toEqual({ type: 'self_hosted' });
      expect(await client.beta.environments.retrieve(env.id)).toEqual(back);

      expect(await sdkFailure(otherClient.beta.environments.retrieve(env.id))).toBeInstanceOf(sdk.Anthropic.NotFoundError);
    });

    test('a config type the SDK does not declare is a 400 naming config, on create and on update', async () => {
      const message = 'config: must be {"type": "cloud", ...}, {"type": "self_hosted"} or null';
      const created = await sdkFailure(client.beta.environments.create({ name: 'bad', config: { type: 'on_premises' } as never }));
      expect(created).toBeInstanceOf(sdk.Anthropic.BadRequestError);
      expect(created.error.error.message).toContain(message);

      const env = await client.beta.environments.create({ name: 'fine', config: { type: 'self_hosted' } });
      const updated = await sdkFailure(client.beta.environments.update(env.id, { config: { type: 'hybrid' } as never }));
      expect(updated).toBeInstanceOf(sdk.Anthropic.BadRequestError);
      expect(updated.error.error.message).toContain(message);
      // A self_hosted config has nothing but its type.
      const extra = await sdkFailure(client.beta.environments.update(env.id, { config: { type: 'self_hosted', packages: { pip: ['x'] } } as never }));
      expect(extra).toBeInstanceOf(sdk.Anthropic.BadRequestError);
      expect(extra.error.error.message).toContain('config.packages: unknown property');
      expect((await client.beta.environments.retrieve(env.id)).config).toEqual({ type: 'self_hosted' });
    });
  });
});
