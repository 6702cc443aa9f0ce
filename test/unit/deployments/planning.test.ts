import { describe, expect, test } from 'bun:test';
import type { DeploymentCreateRequest, InitialEventParams } from '@shared/schema/deployment';
import { newDeploymentRow, planDeploymentCreate } from '../../../services/deployments/src/domain/deployment-create';
import { planDeploymentUpdate, updatedRow } from '../../../services/deployments/src/domain/deployment-update';
import { checkSystemMessagePlacement } from '../../../services/deployments/src/domain/initial-events';
import { deploymentRow } from '../../support/deployment-row';
import { messageOf } from '../../support/expect';

const user = (text = 'go'): InitialEventParams => ({ type: 'user.message', content: [{ type: 'text', text }] });
const system: InitialEventParams = { type: 'system.message', content: [{ type: 'text', text: 'be brief' }] };
const repo = (over: Record<string, unknown> = {}) => ({
  type: 'github_repository' as const,
  url: 'https://github.com/acme/widgets.git',
  authorization_token: 'ghp_x',
  ...over,
});

describe('initial events: where a system.message may stand', () => {
  test('at most one, the final event, right after a user.message', () => {
    expect(checkSystemMessagePlacement([user()])).toBeUndefined();
    expect(checkSystemMessagePlacement([user(), system])).toBe(1);
    expect(messageOf(() => checkSystemMessagePlacement([user(), system, system]))).toBe('initial_events.2: at most one system.message event is allowed');
    expect(messageOf(() => checkSystemMessagePlacement([user(), system, user()]))).toBe('initial_events.1: system.message must be the final event');
    expect(messageOf(() => checkSystemMessagePlacement([system]))).toBe('initial_events.0: system.message must immediately follow a user.message event');
  });
});

describe('planDeploymentCreate', () => {
  const request = (over: Partial<DeploymentCreateRequest> = {}): DeploymentCreateRequest => ({
    name: 'n',
    agent: 'agent_a',
    environment_id: 'env_e',
    initial_events: [user()],
    ...over,
  });

  test('references in request order with their paths; tokens apart from the stored resources', () => {
    const plan = planDeploymentCreate(
      request({
        agent: { type: 'agent', id: 'agent_a', version: 3 },
        vault_ids: ['vlt_1'],
        resources: [repo(), { type: 'file', file_id: 'file_r' }, { type: 'memory_store', memory_store_id: 'memstore_m' }],
        initial_events: [user(), system],
        budget: { type: 'limit', max_list_cost: { currency: 'USD', amount: '100' } },
      }),
    );
    expect(plan.references).toEqual({
      agent: { id: 'agent_a', version: 3, check: true },
      environment: { id: 'env_e', path: 'environment_id' },
      vaults: [{ id: 'vlt_1', path: 'vault_ids.0' }],
      files: [{ id: 'file_r', path: 'resources.1.file_id' }],
      memoryStores: [{ id: 'memstore_m', path: 'resources.2.memory_store_id' }],
      modelRules: { systemMessageAt: 1, hasBudget: true },
    });
    expect(plan.tokens).toEqual([{ index: 0, token: 'ghp_x' }]);
    expect(JSON.stringify(plan.columns)).not.toContain('ghp_x');
    expect(plan.columns.resources[0]).toEqual({ type: 'github_repository', url: 'https://github.com/acme/widgets.git', mount_path: '/workspace/widgets', checkout: null });
  });

  test('the schedule is checked first, naming the field', () => {
    const bad = request({ schedule: { type: 'cron', expression: '@daily', timezone: 'UTC' }, initial_events: [system] });
    expect(messageOf(() => planDeploymentCreate(bad))).toStartWith('schedule.expression:');
  });

  test('the new row: active, revision 1, the resolved agent version, times from the clock given', () => {
    const now = new Date('2026-06-01T08:00:00.000Z');
    const plan = planDeploymentCreate(request({ metadata: { a: '1' } }));
    const row = newDeploymentRow('depl_1', { organization_id: 'org_1', workspace_id: 'ws_1' }, request({ metadata: { a: '1' } }), plan, { id: 'agent_a', version: 2, model: null }, null, now);
    expect(row).toEqual(deploymentRow({ name: 'n', metadata: { a: '1' } }));
  });
});

describe('planDeploymentUpdate', () => {
  const scheduled = deploymentRow({ scheduleExpression: '0 9 * * *', scheduleTimezone: 'UTC', metadata: { keep: 'y', drop: 'y' } });

  test('an update of plain fields asks nobody about anything and keeps the rest', () => {
    const plan = planDeploymentUpdate(scheduled, { name: 'renamed', metadata: { drop: null } });
    expect(plan.columns).toMatchObject({ name: 'renamed', metadata: { keep: 'y' }, scheduleExpression: '0 9 * * *', scheduleTimezone: 'UTC' });
    expect(plan.references).toEqual({
      agent: { id: 'agent_a', version: 2, check: false },
      environment: null,
      vaults: [],
      files: [],
      memoryStores: [],
      modelRules: null,
    });
    expect(plan.tokens).toBeNull();
  });

  test('schedule null clears it; description "" clears it; lists null clear them', () => {
    const plan = planDeploymentUpdate(deploymentRow({ ...scheduled, description: 'd', vaultIds: ['vlt_1'] }), { schedule: null, description: '', vault_ids: null });
    expect(plan.columns).toMatchObject({ scheduleExpression: null, scheduleTimezone: null, description: null, vaultIds: [] });
  });

  test('a new agent is checked; a budget or new events re-check the kept agent model rules', () => {
    expect(planDeploymentUpdate(scheduled, { agent: 'agent_b' }).references.agent).toEqual({ id: 'agent_b', version: null, check: true });
    const budgeted = planDeploymentUpdate(scheduled, { budget: { type: 'limit', max_list_cost: { currency: 'USD', amount: '1' } } });
    expect(budgeted.references.agent.check).toBe(false);
    expect(budgeted.references.modelRules).toEqual({ systemMessageAt: undefined, hasBudget: true });
    expect(planDeploymentUpdate(scheduled, { budget: null }).references.modelRules).toBeNull();
    expect(planDeploymentUpdate(scheduled, { initial_events: [user(), system] }).references.modelRules).toEqual({ systemMessageAt: 1, hasBudget: false });
  });

  test('replaced resources bring their tokens; the updated row takes the next revision and the resolved version only for a named agent', () => {
    const now = new Date('2026-06-03T00:00:00.000Z');
    const plan = planDeploymentUpdate(scheduled, { resources: [repo({ mount_path: '/workspace/w' })] });
    expect(plan.tokens).toEqual([{ index: 0, token: 'ghp_x' }]);
    const next = updatedRow(scheduled, plan, { id: 'agent_a', version: 9, model: null }, { keyId: 'k1', wrapped: 'w' }, now);
    expect(next).toMatchObject({ agentVersion: 2, revision: 2, updatedAt: now, dataKeyId: 'k1', dataKeyWrapped: 'w' });
    const renamed = planDeploymentUpdate(scheduled, { agent: 'agent_a' });
    expect(updatedRow(scheduled, renamed, { id: 'agent_a', version: 9, model: null }, undefined, now)).toMatchObject({ agentVersion: 9, dataKeyId: null });
  });

  test('rule violations are the same 400s as at creation', () => {
    expect(messageOf(() => planDeploymentUpdate(scheduled, { initial_events: [system] }))).toBe('initial_events.0: system.message must immediately follow a user.message event');
    expect(messageOf(() => planDeploymentUpdate(scheduled, { resources: [repo({ url: 'http://h/x' })] }))).toStartWith('resources.0.url:');
  });
});
