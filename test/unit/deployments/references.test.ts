import { describe, expect, test } from 'bun:test';
import type { Model } from '@shared/schema/model';
import type { CheckVaultsReply, ResolveReferencesReply } from '@shared/schema/references';
import type { DeploymentRow } from '../../../services/deployments/src/db/schema';
import {
  asksOwners,
  classifyReferences,
  referenceIds,
  referenceRefusal,
  referenceRunError,
  rowReferences,
  type ReferenceProblem,
  type ReferenceSet,
} from '../../../services/deployments/src/domain/references';
import { modelFixture } from '../../support/model-fixture';

const model = (over: Partial<Model> = {}): Model =>
  modelFixture({ list_price: { currency: 'USD', input_per_million_tokens: '300', output_per_million_tokens: '1500' }, ...over });

const refs = (over: Partial<ReferenceSet> = {}): ReferenceSet => ({
  agent: { id: 'agent_a', version: null, check: true },
  environment: { id: 'env_e', path: 'environment_id' },
  vaults: [{ id: 'vlt_v', path: 'vault_ids.0' }],
  files: [
    { id: 'file_f', path: 'resources.0.file_id' },
    { id: 'file_g', path: 'initial_events.0.content.1.source.file_id' },
  ],
  memoryStores: [{ id: 'memstore_m', path: 'resources.1.memory_store_id' }],
  modelRules: { systemMessageAt: undefined, hasBudget: false },
  ...over,
});

/** Every reference usable unless a state is given for it. */
function replies(states: Record<string, 'ok' | 'not_found' | 'archived' | 'absent'> = {}, agentModel: Model | null = model()) {
  const st = (id: string) => states[id] ?? 'ok';
  const present = (ids: string[]) => ids.filter((id) => st(id) !== 'absent').map((id) => ({ id, state: st(id) as 'ok' }));
  const agentState = st('agent_a');
  const catalog: ResolveReferencesReply = {
    agent: agentState === 'absent' ? null : { id: 'agent_a', state: agentState as 'ok', version: agentState === 'not_found' ? null : 3, model: agentModel },
    environment: st('env_e') === 'absent' ? null : { id: 'env_e', state: st('env_e') as 'ok' },
    files: present(['file_f', 'file_g']),
    memory_stores: present(['memstore_m']),
  };
  const vaults: CheckVaultsReply = { vaults: present(['vlt_v']) };
  return { catalog, vaults };
}

const problemOf = (set: ReferenceSet, r: ReturnType<typeof replies>) => {
  const verdict = classifyReferences(set, r);
  if (verdict.ok) throw new Error('expected a problem');
  return verdict.problem;
};

describe('classifyReferences', () => {
  test('all usable: ok with the agent resolved to the version the catalog answered', () => {
    expect(classifyReferences(refs(), replies())).toEqual({ ok: true, agent: { id: 'agent_a', version: 3, model: model() }, memoryStores: new Map() });
  });

  test('the first problem in request order: agent, environment, vaults, files, memory stores', () => {
    const all = { agent_a: 'archived', env_e: 'archived', vlt_v: 'not_found', file_f: 'not_found', memstore_m: 'archived' } as const;
    expect(problemOf(refs(), replies(all))).toMatchObject({ kind: 'agent', state: 'archived' });
    expect(problemOf(refs(), replies({ ...all, agent_a: 'ok' }))).toMatchObject({ kind: 'environment', state: 'archived', path: 'environment_id' });
    expect(problemOf(refs(), replies({ ...all, agent_a: 'ok', env_e: 'ok' }))).toMatchObject({ kind: 'vault', state: 'not_found', path: 'vault_ids.0' });
    expect(problemOf(refs(), replies({ memstore_m: 'archived', file_g: 'archived' }))).toEqual({
      kind: 'file',
      state: 'archived',
      id: 'file_g',
      path: 'initial_events.0.content.1.source.file_id',
    });
    expect(problemOf(refs(), replies({ memstore_m: 'archived' }))).toMatchObject({ kind: 'memory_store', state: 'archived', id: 'memstore_m' });
  });

  test('an id the reply leaves out counts as not found (fail closed), and so does an agent without a version', () => {
    expect(problemOf(refs(), replies({ vlt_v: 'absent' }))).toMatchObject({ kind: 'vault', state: 'not_found' });
    expect(problemOf(refs(), replies({ env_e: 'absent' }))).toMatchObject({ kind: 'environment', state: 'not_found' });
    expect(problemOf(refs(), replies({ agent_a: 'absent' }))).toMatchObject({ kind: 'agent', state: 'not_found' });
    expect(problemOf(refs(), replies({ agent_a: 'not_found' }))).toMatchObject({ kind: 'agent', state: 'not_found' });
  });

  test('model rules come after the references: system.message first, then the budget; an unknown model meets neither', () => {
    const both = refs({ modelRules: { systemMessageAt: 1, hasBudget: true } });
    const bare = model({ supports_system_messages: false, list_price: null });
    expect(problemOf(both, replies({}, bare))).toMatchObject({ kind: 'model', rule: 'system_message', path: 'initial_events.1' });
    expect(problemOf(both, replies({}, model({ list_price: null })))).toMatchObject({ kind: 'model', rule: 'budget', path: 'budget' });
    expect(problemOf(both, replies({}, null))).toMatchObject({ kind: 'model', rule: 'system_message' });
    expect(problemOf(both, replies({ env_e: 'archived' }, bare))).toMatchObject({ kind: 'environment' });
    expect(classifyReferences(refs({ modelRules: null }), replies({}, bare)).ok).toBe(true);
  });

  test('a kept agent (update) is asked about for its model only: its state is not a problem', () => {
    const kept = refs({ agent: { id: 'agent_a', version: 2, check: false }, environment: null });
    expect(classifyReferences(kept, replies({ agent_a: 'archived' }))).toEqual({ ok: true, agent: { id: 'agent_a', version: 3, model: model() }, memoryStores: new Map() });
    const nothing = { catalog: { agent: null, environment: null, files: [], memory_stores: [] }, vaults: { vaults: [] } };
    const empty = refs({ agent: { id: 'agent_a', version: 2, check: false }, environment: null, vaults: [], files: [], memoryStores: [], modelRules: null });
    expect(asksOwners(empty)).toBe(false);
    expect(classifyReferences(empty, nothing)).toEqual({ ok: true, agent: { id: 'agent_a', version: 2, model: null }, memoryStores: new Map() });
    expect(asksOwners({ ...empty, modelRules: { systemMessageAt: undefined, hasBudget: false } })).toBe(true);
  });
});

describe('a problem as creation answers it and as a fire records it', () => {
  const agentModel = model({ id: 'claude-x' });
  const resolved = { id: 'agent_a', version: 3, model: agentModel };
  type Refusal = { status: number; type: string; message: string };
  const notFound = (message: string): Refusal => ({ status: 404, type: 'not_found_error', message });
  const invalid = (message: string): Refusal => ({ status: 400, type: 'invalid_request_error', message });
  const run = (type: string, message: string) => ({ type, message });
  const cases: Array<[ReferenceProblem, Refusal, { type: string; message: string }]> = [
    [{ kind: 'agent', state: 'not_found', id: 'agent_a', version: null, path: 'agent' }, notFound("agent: agent 'agent_a' not found"), run('session_resource_not_found_error', "agent 'agent_a' version null no longer exists")],
    [{ kind: 'agent', state: 'not_found', id: 'agent_a', version: 2, path: 'agent' }, notFound("agent: agent 'agent_a' version 2 not found"), run('session_resource_not_found_error', "agent 'agent_a' version 2 no longer exists")],
    [{ kind: 'agent', state: 'archived', id: 'agent_a', version: 2, path: 'agent' }, invalid("agent: agent 'agent_a' is archived"), run('agent_archived_error', "agent 'agent_a' is archived")],
    [{ kind: 'environment', state: 'not_found', id: 'env_e', path: 'environment_id' }, notFound("environment_id: environment 'env_e' not found"), run('environment_not_found_error', "environment 'env_e' no longer exists")],
    [{ kind: 'environment', state: 'archived', id: 'env_e', path: 'environment_id' }, invalid("environment_id: environment 'env_e' is archived"), run('environment_archived_error', "environment 'env_e' is archived")],
    [{ kind: 'vault', state: 'not_found', id: 'vlt_v', path: 'vault_ids.1' }, notFound("vault_ids.1: vault 'vlt_v' not found"), run('vault_not_found_error', "vault 'vlt_v' no longer exists")],
    [{ kind: 'vault', state: 'archived', id: 'vlt_v', path: 'vault_ids.0' }, invalid("vault_ids.0: vault 'vlt_v' is archived"), run('vault_archived_error', "vault 'vlt_v' is archived")],
    [{ kind: 'file', state: 'archived', id: 'file_f', path: 'resources.2.file_id' }, invalid("resources.2.file_id: file 'file_f' is archived"), run('file_not_found_error', "file 'file_f' no longer exists")],
    [{ kind: 'memory_store', state: 'not_found', id: 'memstore_m', path: 'resources.0.memory_store_id' }, notFound("resources.0.memory_store_id: memory store 'memstore_m' not found"), run('session_resource_not_found_error', "memory store 'memstore_m' no longer exists")],
    [{ kind: 'memory_store', state: 'archived', id: 'memstore_m', path: 'resources.0.memory_store_id' }, invalid("resources.0.memory_store_id: memory store 'memstore_m' is archived"), run('memory_store_archived_error', "memory store 'memstore_m' is archived")],
    [
      { kind: 'model', rule: 'system_message', agent: resolved, path: 'initial_events.1' },
      invalid("initial_events.1: model 'claude-x' of agent 'agent_a' does not accept system.message events"),
      run('unknown_error', "model 'claude-x' does not accept the deployment's system.message event"),
    ],
    [
      { kind: 'model', rule: 'budget', agent: { ...resolved, model: null }, path: 'budget' },
      invalid("budget: the agent's model of agent 'agent_a' has no public list price, so a budget cannot be set"),
      run('unknown_error', "the agent's model has no public list price, so the deployment's budget cannot be applied"),
    ],
  ];
  for (const [problem, refusal, runError] of cases) {
    test(`${problem.kind} ${'state' in problem ? problem.state : problem.rule}`, () => {
      const error = referenceRefusal(problem);
      expect<object>({ status: error.status, type: error.type, message: error.message }).toEqual(refusal);
      expect<object>(referenceRunError(problem)).toEqual(runError);
    });
  }
});

describe('rowReferences: what a fire re-checks', () => {
  const row = {
    agentId: 'agent_a',
    agentVersion: 4,
    environmentId: 'env_e',
    vaultIds: ['vlt_1', 'vlt_2', 'vlt_1'],
    resources: [
      { type: 'memory_store', memory_store_id: 'memstore_m', access: 'read_write', instructions: null },
      { type: 'file', file_id: 'file_r', mount_path: '/mnt/session/r' },
    ],
    initialEvents: [
      { type: 'user.message', content: [{ type: 'text', text: 'hi' }] },
      { type: 'system.message', content: [{ type: 'text', text: 'be brief' }] },
    ],
    budget: null,
  } as unknown as DeploymentRow;

  test('every reference with the path it has in a request, and the model rules the row implies', () => {
    expect(rowReferences(row)).toEqual({
      agent: { id: 'agent_a', version: 4, check: true },
      environment: { id: 'env_e', path: 'environment_id' },
      vaults: [
        { id: 'vlt_1', path: 'vault_ids.0' },
        { id: 'vlt_2', path: 'vault_ids.1' },
        { id: 'vlt_1', path: 'vault_ids.2' },
      ],
      files: [{ id: 'file_r', path: 'resources.1.file_id' }],
      memoryStores: [{ id: 'memstore_m', path: 'resources.0.memory_store_id' }],
      modelRules: { systemMessageAt: 1, hasBudget: false },
    });
  });

  test('each id is asked about once', () => {
    expect(referenceIds(rowReferences(row))).toEqual({
      agent: { id: 'agent_a', version: 4 },
      environment_id: 'env_e',
      vault_ids: ['vlt_1', 'vlt_2'],
      file_ids: ['file_r'],
      memory_store_ids: ['memstore_m'],
    });
  });
});
