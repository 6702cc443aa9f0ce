/**
 * The session's pure rules: resource identities (derived until the list changes), adding a
 * resource, paging resources, the SDK's budget rules, the fire's and the API's one source of a
 * new session, and what a create cannot honour.
 */
import { describe, expect, test } from 'bun:test';
import { isIdOf, newId } from '@shared/ids/ids';
import type { SessionAgent } from '@shared/schema/session';
import type { SessionRow } from '../../../services/deployments/src/db/schema';
import { newSessionRow, planSessionCreate, sessionFromDeployment, tokenResourceIds } from '../../../services/deployments/src/domain/session-create';
import { derivedResourceId, materialised, planResourceAdd, resourcePage, SESSION_RESOURCES_MAX } from '../../../services/deployments/src/domain/session-resources';
import { checkBudgetChange, planSessionUpdate, sessionUpdatedEvent } from '../../../services/deployments/src/domain/session-update';
import { deploymentRow } from '../../support/deployment-row';
import { messageOf } from '../../support/expect';

const at = new Date('2026-06-01T08:00:00.000Z');
const later = new Date('2026-06-01T09:00:00.000Z');
const agent: SessionAgent = {
  type: 'agent',
  id: 'agent_a',
  version: 2,
  name: 'a',
  description: null,
  model: { id: 'claude-opus-4-5' },
  system: null,
  execution_identity: { type: 'service_account' },
  tools: [],
  mcp_servers: [],
  skills: [],
  multiagent: null,
} as SessionAgent;
const budget = (amount: string) => ({ type: 'limit' as const, max_list_cost: { currency: 'USD' as const, amount } });
const repo = { type: 'github_repository' as const, url: 'https://github.com/acme/widgets', mount_path: '/workspace/widgets', checkout: null };
const file = { type: 'file' as const, file_id: 'file_1', mount_path: '/mnt/session/uploads/file_1' };

const sessionRow = (over: Partial<SessionRow> = {}): SessionRow => ({
  ...newSessionRow(newId('session'), { ...sessionFromDeployment(deploymentRow(), agent), resources: [repo, file] }, at),
  ...over,
});

describe('resource identities', () => {
  test('derived from the session and the position until the list changes: stable, of the sesrsc_ form, distinct', () => {
    const row = sessionRow();
    const first = materialised(row.id, row.createdAt, row.resources);
    expect(first.map((r) => r.id)).toEqual([derivedResourceId(row.id, 0), derivedResourceId(row.id, 1)]);
    expect(materialised(row.id, row.createdAt, row.resources)).toEqual(first);
    expect(first.every((r) => isIdOf('sessionResource', r.id) && r.created_at === at.toISOString() && r.updated_at === at.toISOString())).toBe(true);
    expect(first[0]!.id).not.toBe(first[1]!.id);
    expect(derivedResourceId(newId('session'), 0)).not.toBe(first[0]!.id);
  });

  test('stored identities win: after a delete the others keep the ids they were shown with', () => {
    const row = sessionRow();
    const [kept, removed] = materialised(row.id, row.createdAt, row.resources);
    const after = materialised(row.id, row.createdAt, [removed!]);
    expect(after).toEqual([removed!]);
    expect(kept!.id).not.toBe(after[0]!.id);
  });

  test("a new session's tokens are bound to the ids its resources will have", () => {
    expect(tokenResourceIds('sesn_x', [{ index: 1, token: 't' }])).toEqual([{ resourceId: derivedResourceId('sesn_x', 1), token: 't' }]);
  });
});

describe('adding a resource', () => {
  const current = () => materialised('sesn_x', at, [repo, file]);
  test('defaults as at creation, an id and timestamps of its own', () => {
    const plan = planResourceAdd(current(), { type: 'file', file_id: 'file_2' }, { allowHttpUrls: false }, later);
    expect(plan.resource).toMatchObject({ type: 'file', file_id: 'file_2', mount_path: '/mnt/session/uploads/file_2', created_at: later.toISOString() });
    expect(isIdOf('sessionResource', plan.resource.id)).toBe(true);
    expect([plan.file, plan.memoryStore, plan.token]).toEqual(['file_2', null, null]);
    const withToken = planResourceAdd(current(), { type: 'github_repository', url: 'https://github.com/acme/other', authorization_token: 'tok' }, { allowHttpUrls: false }, later);
    expect(withToken.token).toBe('tok');
    expect(JSON.stringify(withToken.resource)).not.toContain('tok');
  });

  test('a mount path already used (normalised), a bad one, or one resource too many: 400 naming the field', () => {
    const rules = { allowHttpUrls: false };
    expect(messageOf(() => planResourceAdd(current(), { type: 'file', file_id: 'f', mount_path: '/workspace//widgets/' }, rules, later))).toContain('mount_path');
    expect(messageOf(() => planResourceAdd(current(), { type: 'file', file_id: 'f', mount_path: '/a/../b' }, rules, later))).toStartWith('mount_path:');
    const full = Array.from({ length: SESSION_RESOURCES_MAX }, () => current()[1]!);
    expect(messageOf(() => planResourceAdd(full, { type: 'file', file_id: 'f' }, rules, later))).toContain(`at most ${SESSION_RESOURCES_MAX}`);
  });
});

describe('paging resources', () => {
  test('in list order, each once; a page after a deleted resource starts at the next one created', () => {
    const stored = materialised('sesn_x', at, [repo, file]).concat(planResourceAdd([], { type: 'file', file_id: 'f3' }, { allowHttpUrls: false }, later).resource);
    const row = { id: 'sesn_x', createdAt: at, resources: stored };
    const first = resourcePage(row, 2, null);
    expect(first.data.map((r) => r.id)).toEqual([stored[0]!.id, stored[1]!.id]);
    const second = resourcePage(row, 2, first.next);
    expect([second.data.map((r) => r.id), second.next]).toEqual([[stored[2]!.id], null]);
    const withoutAnchor = { ...row, resources: [stored[0]!, stored[2]!] };
    expect(resourcePage(withoutAnchor, 2, { created_at: stored[1]!.created_at, id: stored[1]!.id }).data.map((r) => r.id)).toEqual([stored[2]!.id]);
  });
});

describe('budget rules (SDK SessionUpdateParams.budget)', () => {
  test('budget_create_only: never added to a session created without one (or whose budget was removed)', () => {
    expect(messageOf(() => checkBudgetChange(sessionRow({ budget: null }), budget('900')))).toStartWith('budget: budget_create_only:');
  });
  test('budget_not_raised: not at or below the consumed list cost; replacing or lowering above it is fine', () => {
    const row = sessionRow({ budget: budget('900') });
    expect(messageOf(() => checkBudgetChange(row, budget('0')))).toStartWith('budget: budget_not_raised:');
    expect(checkBudgetChange(row, budget('1'))).toEqual(budget('1'));
    expect(checkBudgetChange(row, budget('5000'))).toEqual(budget('5000'));
  });
  test('null removes; a terminated session keeps what it has', () => {
    expect(checkBudgetChange(sessionRow({ budget: budget('900') }), null)).toBeNull();
    expect(messageOf(() => checkBudgetChange(sessionRow({ budget: budget('900'), status: 'terminated' }), null))).toContain('terminated');
  });
  test('a budget set asks the catalog about the model (model_not_budgetable); a removal does not', () => {
    const row = sessionRow({ budget: budget('900') });
    expect(planSessionUpdate(row, agent, { budget: budget('1000') }, later).references?.modelRules).toEqual({ systemMessageAt: undefined, hasBudget: true });
    expect(planSessionUpdate(row, agent, { budget: null }, later).references).toBeNull();
  });
});

describe('update', () => {
  test('archived sessions refuse every change with the one archived rule', () => {
    expect(messageOf(() => planSessionUpdate(sessionRow({ archivedAt: later }), agent, { title: 'x' }, later))).toContain('is archived and cannot be updated');
  });
  test('title, metadata patch; vault_ids reserved', () => {
    const row = sessionRow({ metadata: { a: '1', b: '2' } });
    expect(planSessionUpdate(row, agent, { title: 't', metadata: { a: null, c: '3' } }, later).change).toEqual({ title: 't', metadata: { b: '2', c: '3' }, updatedAt: later });
    expect(messageOf(() => planSessionUpdate(row, agent, { vault_ids: [] }, later))).toStartWith('vault_ids:');
  });

  test("agent tools and MCP servers: replaced whole by the catalog's rule, errors under agent., not while running", () => {
    const row = sessionRow();
    const servers = [{ type: 'url' as const, name: 'docs', url: 'https://mcp.example.com/sse' }];
    const both = planSessionUpdate(row, agent, { agent: { tools: [{ type: 'mcp_toolset', mcp_server_name: 'docs' }], mcp_servers: servers } }, later).change.agent!;
    expect(both.mcp_servers).toEqual([{ name: 'docs', type: 'url', url: 'https://mcp.example.com/sse' }]);
    expect(both.tools).toEqual([
      { type: 'mcp_toolset', mcp_server_name: 'docs', configs: [], default_config: { enabled: true, permission_policy: { type: 'always_ask' } } },
    ]);
    expect({ ...both, tools: agent.tools, mcp_servers: agent.mcp_servers }).toEqual(agent);
    expect(messageOf(() => planSessionUpdate(row, agent, { agent: { tools: [{ type: 'mcp_toolset', mcp_server_name: 'docs' }] } }, later))).toStartWith('agent.tools.0.mcp_server_name:');
    expect(messageOf(() => planSessionUpdate(row, both, { agent: { mcp_servers: [] } }, later))).toStartWith('agent.mcp_servers:');
    expect(messageOf(() => planSessionUpdate(row, agent, { agent: { mcp_servers: [{ type: 'url', name: 'x', url: 'http://plain' }] } }, later))).toStartWith('agent.mcp_servers.0.url:');
    expect(messageOf(() => planSessionUpdate(sessionRow({ status: 'running' }), agent, { agent: { tools: [] } }, later))).toContain('running');
  });
});

describe('session.updated', () => {
  test('only what changed; the whole agent after a tools change; metadata left out when emptied; nothing when nothing changed', () => {
    const before = sessionRow({ title: 't', metadata: { a: '1' }, budget: budget('900') });
    expect(sessionUpdatedEvent(before, agent, { ...before })).toBeNull();
    expect(sessionUpdatedEvent(before, agent, { ...before, title: null, budget: null })).toEqual({ type: 'session.updated', title: null, budget: null });
    expect(sessionUpdatedEvent(before, agent, { ...before, metadata: {} })).toEqual({ type: 'session.updated' });
    expect(sessionUpdatedEvent(before, agent, { ...before, metadata: { b: '2', a: '1' } })).toEqual({ type: 'session.updated', metadata: { b: '2', a: '1' } });
    const tooled = { ...agent, tools: [] };
    expect(sessionUpdatedEvent(before, agent, { ...before, agent: tooled })).toBeNull();
    const cleared = { ...agent, mcp_servers: [{ name: 'x', type: 'url' as const, url: 'https://x.example' }] };
    expect(sessionUpdatedEvent(before, agent, { ...before, agent: cleared })).toEqual({ type: 'session.updated', agent: cleared });
  });
});

describe('one source of new sessions', () => {
  test("a fire's session is the deployment as it stands, with the agent's snapshot, idle, untitled", () => {
    const deployment = deploymentRow({ budget: budget('700'), metadata: { team: 'ops' } });
    const row = newSessionRow('sesn_1', sessionFromDeployment(deployment, agent), at);
    expect(row).toMatchObject({
      deploymentId: deployment.id,
      agentId: agent.id,
      agentVersion: agent.version,
      agent,
      budget: budget('700'),
      metadata: { team: 'ops' },
      status: 'idle',
      title: null,
      dataKeyId: null,
      archivedAt: null,
    });
  });

  test('agent_with_overrides is refused by name; a string or {type: agent} pins as a deployment does', () => {
    const base = { agent: 'agent_a', environment_id: 'env_e' };
    expect(messageOf(() => planSessionCreate({ ...base, agent: { type: 'agent_with_overrides' } }))).toStartWith('agent:');
    expect(planSessionCreate(base).agent).toEqual({ id: 'agent_a', version: null });
    expect(planSessionCreate({ ...base, agent: { type: 'agent', id: 'agent_a', version: 3 } }).agent).toEqual({ id: 'agent_a', version: 3 });
    expect(planSessionCreate({ ...base, budget: budget('1') }).references.modelRules).toEqual({ systemMessageAt: undefined, hasBudget: true });
  });
});
