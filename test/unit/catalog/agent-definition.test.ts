import { describe, expect, test } from 'bun:test';
import { ApiError } from '@shared/errors/api-error';
import {
  applyAgentUpdate,
  checkAgentUpdatable,
  definitionOf,
  newAgentDefinition,
  resolveModel,
  sameDefinition,
} from '../../../services/catalog/src/domain/agent-definition';

/** An agent with no multiagent configuration names no other agent. */
const roster = { self: { id: 'agent_1', version: 1 }, lookup: () => undefined };
const models = { find: (id: string) => (id.startsWith('claude-') ? ({ id } as never) : undefined) };

function apiError(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected an ApiError');
}

describe('agent definition', () => {
  test('a new agent gets the defaults: null description and system, empty metadata, the service account', () => {
    expect(newAgentDefinition({ name: 'a', model: 'claude-x' }, models, roster)).toEqual({
      name: 'a',
      description: null,
      model: { id: 'claude-x' },
      system: null,
      metadata: {},
      executionIdentity: { type: 'service_account' },
      tools: [],
      mcpServers: [],
      skills: [],
      multiagent: null,
    });
  });

  test('the model is shown as an object; effort given as a level becomes {type}; null options are dropped', () => {
    expect(resolveModel('claude-x', models)).toEqual({ id: 'claude-x' });
    expect(resolveModel({ id: 'claude-x', effort: 'high', speed: 'fast', inference_geo: null }, models)).toEqual({
      id: 'claude-x',
      effort: { type: 'high' },
      speed: 'fast',
    });
    expect(resolveModel({ id: 'claude-x', effort: { type: 'low' } }, models).effort).toEqual({ type: 'low' });
  });

  test('a retired model is refused; a deprecated one is still accepted', () => {
    const staged = { find: (id: string) => ({ id, lifecycle: id.endsWith('-old') ? 'retired' : 'deprecated' }) as never };
    expect(apiError(() => resolveModel({ id: 'claude-old' }, staged)).message).toBe('model.id: model "claude-old" is retired');
    expect(resolveModel('claude-x', staged)).toEqual({ id: 'claude-x' });
  });

  test('an unknown model is a 400 naming the field it came from', () => {
    expect(apiError(() => resolveModel('gpt', models))).toMatchObject({ status: 400, message: 'model: unknown model "gpt"' });
    expect(apiError(() => resolveModel({ id: 'gpt' }, models)).message).toBe('model.id: unknown model "gpt"');
  });

  test('an update keeps omitted fields; null or empty string clears description and system', () => {
    const v1 = newAgentDefinition({ name: 'a', model: 'claude-x', description: 'd', system: 's', metadata: { k: 'v' } }, models, roster);
    expect(applyAgentUpdate(v1, {}, models, roster)).toEqual(v1);
    expect(applyAgentUpdate(v1, { description: '', system: null }, models, roster)).toMatchObject({ description: null, system: null });
    expect(applyAgentUpdate(v1, { metadata: { k: null, n: 'w' } }, models, roster).metadata).toEqual({ n: 'w' });
  });

  test('execution identity: omitted keeps it, null resets it to the service account', () => {
    const v1 = newAgentDefinition({ name: 'a', model: 'claude-x', execution_identity: { type: 'aws_role', role_arn: 'arn:x' } }, models, roster);
    expect(applyAgentUpdate(v1, {}, models, roster).executionIdentity).toEqual({ type: 'aws_role', role_arn: 'arn:x' });
    expect(applyAgentUpdate(v1, { execution_identity: null }, models, roster).executionIdentity).toEqual({ type: 'service_account' });
  });

  test('sameDefinition ignores key order, so a no-op update adds no version', () => {
    const a = newAgentDefinition({ name: 'a', model: 'claude-x', metadata: { x: '1', y: '2' } }, models, roster);
    const b = { ...a, metadata: { y: '2', x: '1' } };
    expect(sameDefinition(a, b, 'agent_1')).toBe(true);
    expect(sameDefinition(a, { ...a, name: 'b' }, 'agent_1')).toBe(false);
  });

  test('definitionOf reads back what a version row stores', () => {
    const d = newAgentDefinition({ name: 'a', model: 'claude-x', system: 's' }, models, roster);
    const row = { agentId: 'agent_1', version: 3, createdAt: new Date(0), ...d };
    expect(definitionOf(row)).toEqual(d);
  });

  test('version rules: archived agents are frozen (400); a stated version must be the latest (409)', () => {
    const agent = { id: 'agent_1', archivedAt: null, latestVersion: 2 };
    expect(() => checkAgentUpdatable(agent, undefined)).not.toThrow();
    expect(() => checkAgentUpdatable(agent, 2)).not.toThrow();
    expect(apiError(() => checkAgentUpdatable(agent, 1))).toMatchObject({
      status: 409,
      message: 'version: agent agent_1 is at version 2, not 1; fetch it and retry',
    });
    expect(apiError(() => checkAgentUpdatable({ ...agent, archivedAt: new Date() }, 2))).toMatchObject({
      status: 400,
      message: 'agent agent_1 is archived and cannot be updated',
    });
  });
});
