/**
 * Every object the gateway returns, read through the unchanged reference SDK, has every field
 * the SDK's `.d.ts` declares required, with the declared types (test/support/sdk-shape.ts reads
 * the declarations themselves). One walk per resource: create, retrieve, list, update, and the
 * delete/archive answers.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { describeEachSdk, type SdkUnderTest } from '../support/sdk';
import { afterAll, beforeAll, describe, test } from 'bun:test';
import { MODELS } from '../support/fixtures';
import { expectSdkShape } from '../support/sdk-shape';
import { Stack } from '../support/stack';

/** The SDK version the current block runs under (each block sets it in its beforeAll). */
let sdk: SdkUnderTest;

let stack: Stack;
let client: Anthropic;

beforeAll(async () => {
  stack = await Stack.start({ services: ['catalog', 'deployments', 'vaults'] });
});
afterAll(() => stack?.stop());

/** Every item of the first page of a list, checked. */
async function expectPage(page: PromiseLike<{ data: unknown[] }>, typeName: string) {
  for (const item of (await page).data) expectSdkShape(item, typeName);
}

describeEachSdk('the SDK shapes', (under) => {
  beforeAll(async () => {
    sdk = under;
    client = new sdk.Anthropic({ apiKey: (await stack.createKey()).secret, baseURL: stack.url, maxRetries: 0 });
  });

  describe('the SDK reads every resource in its declared shape', () => {
    test('models', async () => {
      await expectPage(client.beta.models.list(), 'BetaModelInfo');
      expectSdkShape(await client.beta.models.retrieve(MODELS.priced), 'BetaModelInfo');
    });

    test('agents', async () => {
      const agent = await client.beta.agents.create({ name: 'shape agent', model: MODELS.priced, system: 'Be brief.' });
      expectSdkShape(agent, 'BetaManagedAgentsAgent');
      expectSdkShape(await client.beta.agents.retrieve(agent.id), 'BetaManagedAgentsAgent');
      expectSdkShape(await client.beta.agents.update(agent.id, { version: agent.version, description: 'now described' }), 'BetaManagedAgentsAgent');
      await expectPage(client.beta.agents.list(), 'BetaManagedAgentsAgent');
      expectSdkShape(await client.beta.agents.archive(agent.id), 'BetaManagedAgentsAgent');
    });

    test('environments', async () => {
      const environment = await client.beta.environments.create({ name: 'shape environment', config: { type: 'cloud' } });
      expectSdkShape(environment, 'BetaEnvironment');
      expectSdkShape(await client.beta.environments.retrieve(environment.id), 'BetaEnvironment');
      await expectPage(client.beta.environments.list(), 'BetaEnvironment');
      expectSdkShape(await client.beta.environments.archive(environment.id), 'BetaEnvironment');
      expectSdkShape(await client.beta.environments.delete(environment.id), 'BetaEnvironmentDeleteResponse');
    });

    test('vaults and credentials', async () => {
      const vault = await client.beta.vaults.create({ display_name: 'shape vault' });
      expectSdkShape(vault, 'BetaManagedAgentsVault');
      const credential = await client.beta.vaults.credentials.create(vault.id, {
        display_name: 'bearer',
        auth: { type: 'static_bearer', token: 'shape-token-value', mcp_server_url: 'https://example-server.modelcontextprotocol.io/sse' },
      });
      expectSdkShape(credential, 'BetaManagedAgentsCredential');
      await expectPage(client.beta.vaults.credentials.list(vault.id), 'BetaManagedAgentsCredential');
      expectSdkShape(await client.beta.vaults.credentials.delete(credential.id, { vault_id: vault.id }), 'BetaManagedAgentsDeletedCredential');
      await expectPage(client.beta.vaults.list(), 'BetaManagedAgentsVault');
      expectSdkShape(await client.beta.vaults.delete(vault.id), 'BetaManagedAgentsDeletedVault');
    });

    test('files and memory stores', async () => {
      const file = await client.beta.files.upload({ file: new File(['shape'], 'shape.txt', { type: 'text/plain' }) });
      expectSdkShape(file, 'BetaFileMetadata');
      expectSdkShape(await client.beta.files.retrieveMetadata(file.id), 'BetaFileMetadata');
      await expectPage(client.beta.files.list(), 'BetaFileMetadata');
      expectSdkShape(await client.beta.files.delete(file.id), 'BetaDeletedFile');

      const store = await client.beta.memoryStores.create({ name: 'shape store' });
      expectSdkShape(store, 'BetaManagedAgentsMemoryStore');
      await expectPage(client.beta.memoryStores.list(), 'BetaManagedAgentsMemoryStore');
      expectSdkShape(await client.beta.memoryStores.delete(store.id), 'BetaManagedAgentsDeletedMemoryStore');
    });

    test('deployments, their runs and sessions', async () => {
      const agent = await client.beta.agents.create({ name: 'shape deployed agent', model: MODELS.priced });
      const environment = await client.beta.environments.create({ name: 'shape deployed environment', config: { type: 'cloud' } });
      const file = await client.beta.files.upload({ file: new File(['mounted'], 'mounted.txt', { type: 'text/plain' }) });
      const store = await client.beta.memoryStores.create({ name: 'shape mounted store' });
      const deployment = await client.beta.deployments.create({
        name: 'shape deployment',
        agent: agent.id,
        environment_id: environment.id,
        resources: [
          { type: 'file', file_id: file.id },
          { type: 'memory_store', memory_store_id: store.id },
          { type: 'github_repository', url: 'https://github.com/example/shape', authorization_token: 'shape-repository-token' },
        ],
        initial_events: [{ type: 'user.message', content: [{ type: 'text', text: 'Go' }] }],
      });
      expectSdkShape(deployment, 'BetaManagedAgentsDeployment');
      await expectPage(client.beta.deployments.list(), 'BetaManagedAgentsDeployment');
      const run = await client.beta.deployments.run(deployment.id);
      expectSdkShape(run, 'BetaManagedAgentsDeploymentRun');
      await expectPage(client.beta.deploymentRuns.list({ deployment_id: deployment.id }), 'BetaManagedAgentsDeploymentRun');
      expectSdkShape(await client.beta.sessions.retrieve(run.session_id!), 'BetaManagedAgentsSession');
      await expectPage(client.beta.sessions.list(), 'BetaManagedAgentsSession');
      expectSdkShape(await client.beta.deployments.archive(deployment.id), 'BetaManagedAgentsDeployment');
    });

    test('agent versions, sessions, their resources and events', async () => {
      const agent = await client.beta.agents.create({
        name: 'shape session agent',
        description: 'Answers briefly.',
        model: { id: MODELS.priced, effort: 'medium' },
        system: 'Be brief.',
        tools: [
          { type: 'agent_toolset_20260401', configs: [{ name: 'bash', permission_policy: { type: 'always_ask' } }] },
          { type: 'mcp_toolset', mcp_server_name: 'docs' },
          { type: 'custom', name: 'lookup', description: 'Looks a word up.', input_schema: { type: 'object', properties: { word: { type: 'string' } } } },
        ],
        mcp_servers: [{ type: 'url', name: 'docs', url: 'https://mcp.docs.example.com/mcp' }],
        skills: [{ type: 'anthropic', skill_id: 'pdf' }],
      });
      expectSdkShape(agent, 'BetaManagedAgentsAgent');
      await client.beta.agents.update(agent.id, { version: agent.version, system: 'Be briefer.' });
      await expectPage(client.beta.agents.versions.list(agent.id), 'BetaManagedAgentsAgent');

      const environment = await client.beta.environments.create({ name: 'shape session environment', config: { type: 'cloud' } });
      const file = await client.beta.files.upload({ file: new File(['mounted'], 'mounted.txt', { type: 'text/plain' }) });
      const session = await client.beta.sessions.create({
        agent: { type: 'agent', id: agent.id, version: agent.version },
        environment_id: environment.id,
        title: 'shape session',
        metadata: { team: 'shape' },
        resources: [{ type: 'github_repository', url: 'https://github.com/example/shape', authorization_token: 'shape-session-token' }],
      });
      expectSdkShape(session, 'BetaManagedAgentsSession');
      expectSdkShape(await client.beta.sessions.retrieve(session.id), 'BetaManagedAgentsSession');
      expectSdkShape(await client.beta.sessions.update(session.id, { title: 'renamed shape session' }), 'BetaManagedAgentsSession');
      await expectPage(client.beta.sessions.list(), 'BetaManagedAgentsSession');

      const added = await client.beta.sessions.resources.add(session.id, { type: 'file', file_id: file.id });
      expectSdkShape(added, 'BetaManagedAgentsSessionResource');
      expectSdkShape(await client.beta.sessions.resources.retrieve(added.id, { session_id: session.id }), 'ResourceRetrieveResponse');
      await expectPage(client.beta.sessions.resources.list(session.id), 'BetaManagedAgentsSessionResource');
      const repository = (await client.beta.sessions.resources.list(session.id)).data.find((r) => r.type === 'github_repository')!;
      expectSdkShape(
        await client.beta.sessions.resources.update(repository.id, { session_id: session.id, authorization_token: 'shape-rotated-token' }),
        'ResourceUpdateResponse',
      );
      expectSdkShape(await client.beta.sessions.resources.delete(added.id, { session_id: session.id }), 'BetaManagedAgentsDeleteSessionResource');

      const sent = await client.beta.sessions.events.send(session.id, {
        events: [
          { type: 'user.message', content: [{ type: 'text', text: 'Hello' }] },
          { type: 'user.define_outcome', description: 'A short answer', rubric: { type: 'text', content: 'Is it short?' } },
        ],
      });
      expectSdkShape(sent, 'BetaManagedAgentsSendSessionEvents');
      await expectPage(client.beta.sessions.events.list(session.id), 'BetaManagedAgentsSessionEvent');

      expectSdkShape(await client.beta.sessions.archive(session.id), 'BetaManagedAgentsSession');
      expectSdkShape(await client.beta.sessions.delete(session.id), 'BetaManagedAgentsDeletedSession');
    });
  });
});
