import { describe, expect, test } from 'bun:test';
import { applyAgentUpdate, newAgentDefinition, sameDefinition } from '../../services/catalog/src/domain/agent-definition';
import { normalizeCloudConfig } from '../../services/catalog/src/domain/environment';
import { decodeBase64, splitIntoChunks } from '../../services/catalog/src/domain/file-chunks';
import { applyMetadataPatch } from '@shared/metadata/apply-metadata-patch';

/** An agent with no multiagent configuration names no other agent. */
const roster = { self: { id: 'agent_1', version: 1 }, lookup: () => undefined };
const models = { find: (id: string) => (id.startsWith('claude-') ? ({ id } as any) : undefined) };

describe('catalog domain rules', () => {
  test('metadata patch upserts, deletes, and limits the result to 16 pairs', () => {
    expect(applyMetadataPatch({ a: '1', b: '2' }, { a: null, c: '3' })).toEqual({ b: '2', c: '3' });
    expect(applyMetadataPatch({ a: '1' }, null)).toEqual({ a: '1' });
    const full = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, 'v']));
    expect(() => applyMetadataPatch(full, { more: 'v' })).toThrow('metadata');
    expect(Object.keys(applyMetadataPatch(full, { more: 'v', k1: null }))).toHaveLength(16);
  });

  test('agent updates keep omitted fields, clear with null or empty string, and detect no-ops', () => {
    const v1 = newAgentDefinition({ name: 'a', model: 'claude-x', system: 's', description: 'd' }, models, roster);
    expect(v1.model).toEqual({ id: 'claude-x' });
    expect(sameDefinition(v1, applyAgentUpdate(v1, { name: 'a' }, models, roster), 'agent_1')).toBe(true);
    const v2 = applyAgentUpdate(v1, { system: '', description: null, model: { id: 'claude-y', effort: 'low' } }, models, roster);
    expect(v2).toMatchObject({ name: 'a', system: null, description: null, model: { id: 'claude-y', effort: { type: 'low' } } });
    expect(() => applyAgentUpdate(v1, { model: 'gpt' }, models, roster)).toThrow('model: unknown model');
  });

  test('cloud config defaults', () => {
    expect(normalizeCloudConfig(null).networking).toEqual({ type: 'unrestricted' });
    expect(normalizeCloudConfig({ type: 'cloud', networking: { type: 'limited', allow_mcp_servers: true } }).networking).toEqual({
      type: 'limited',
      allow_mcp_servers: true,
      allow_package_managers: false,
      allowed_hosts: [],
    });
  });

  test('chunks cover the content exactly; base64 is strict', () => {
    const content = Buffer.alloc(1000, 7);
    const chunks = splitIntoChunks(content, 300);
    expect(chunks.map((c) => c.length)).toEqual([300, 300, 300, 100]);
    expect(Buffer.concat(chunks)).toEqual(content);
    expect(splitIntoChunks(Buffer.alloc(0))).toEqual([]);
    expect(decodeBase64('aGk=')?.toString()).toBe('hi');
    expect(decodeBase64('a?b=')).toBeUndefined();
  });
});
