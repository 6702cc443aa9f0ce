/**
 * The reference client against the gateway: the official SDK, pointed at the stack with an
 * API key, creates what a deployment needs, creates deployments, auto-paginates the list, and
 * creates and deletes a vault.
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

beforeAll(async () => {
  stack = await Stack.start();
});
afterAll(() => stack?.stop());

describeEachSdk('the SDK against deployments', (under) => {
  beforeAll(async () => {
    sdk = under;
    client = new sdk.Anthropic({ apiKey: (await stack.createKey()).secret, baseURL: stack.url, maxRetries: 0 });
  });

  test('creates agents, environments and deployments, and auto-paginates the list', async () => {
    const agent = await client.beta.agents.create({ name: 'sdk agent', model: MODELS.priced });
    const environment = await client.beta.environments.create({ name: 'sdk environment', config: { type: 'cloud' } });
    const created = [];
    for (let i = 0; i < 7; i++) {
      created.push(
        await client.beta.deployments.create({
          name: `sdk deployment ${i}`,
          agent: i % 2 === 0 ? agent.id : { type: 'agent', id: agent.id, version: agent.version },
          environment_id: environment.id,
          initial_events: [{ type: 'user.message', content: [{ type: 'text', text: `Run ${i}` }] }],
          resources: [{ type: 'github_repository', url: 'https://github.com/acme/widgets', authorization_token: 'ghp_x' }],
          schedule: i === 0 ? { type: 'cron', expression: '0 9 * * 1-5', timezone: 'America/Los_Angeles' } : null,
          budget: i === 1 ? { type: 'limit', max_list_cost: { currency: 'USD', amount: '500' } } : undefined,
          metadata: { index: String(i) },
        }),
      );
    }
    expect(created[0].type).toBe('deployment');
    expect(created[0].agent).toEqual({ type: 'agent', id: agent.id, version: agent.version });
    expect(created[0].schedule?.upcoming_runs_at).toHaveLength(5);
    expect(created[1].budget).toEqual({ type: 'limit', max_list_cost: { currency: 'USD', amount: '500' } });
    expect(created[2].resources).toEqual([
      { type: 'github_repository', url: 'https://github.com/acme/widgets', mount_path: '/workspace/widgets', checkout: null },
    ]);

    const listed: string[] = [];
    for await (const deployment of client.beta.deployments.list({ limit: 2 })) listed.push(deployment.id);
    expect(listed).toHaveLength(7);
    expect(new Set(listed)).toEqual(new Set(created.map((d) => d.id)));

    const firstPage = await client.beta.deployments.list({ limit: 2, agent_id: agent.id });
    expect(firstPage.data).toHaveLength(2);
    expect(firstPage.hasNextPage()).toBe(true);
  });

  test('SDK errors carry the envelope: an unknown agent is a NotFoundError, a bad request a BadRequestError', async () => {
    const environment = await client.beta.environments.create({ name: 'e', config: { type: 'cloud' } });
    const base = {
      name: 'x',
      environment_id: environment.id,
      initial_events: [{ type: 'user.message' as const, content: [{ type: 'text' as const, text: 'hi' }] }],
    };
    const missing = await sdkFailure(client.beta.deployments.create({ ...base, agent: 'agent_missing' }));
    expect(missing).toBeInstanceOf(sdk.Anthropic.NotFoundError);
    expect((missing as InstanceType<typeof Anthropic.NotFoundError>).requestID).toMatch(/^req_/);
    const invalid = await sdkFailure(
      client.beta.deployments.create({ ...base, agent: 'agent_missing', schedule: { type: 'cron', expression: '@daily', timezone: 'UTC' } }),
    );
    expect(invalid).toBeInstanceOf(sdk.Anthropic.BadRequestError);
    expect((invalid as Error).message).toContain('schedule.expression');
  });

  test('creates and deletes a vault', async () => {
    const vault = await client.beta.vaults.create({ display_name: 'sdk vault' });
    expect(vault.id).toMatch(/^vlt_/);
    const deleted = await client.beta.vaults.delete(vault.id);
    expect(deleted).toEqual({ type: 'vault_deleted', id: vault.id });
  });
});
