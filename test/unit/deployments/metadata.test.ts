import { describe, expect, test } from 'bun:test';
import { applyMetadataPatch } from '@shared/metadata/apply-metadata-patch';
import { DeploymentCreateRequest, DeploymentUpdateRequest } from '@shared/schema/deployment';
import { validate } from '@shared/validation/validate';
import { messageOf } from '../../support/expect';


const create = (metadata: unknown) =>
  messageOf(() =>
    validate(DeploymentCreateRequest, {
      name: 'n',
      agent: 'agent_a',
      environment_id: 'env_e',
      initial_events: [{ type: 'user.message', content: [{ type: 'text', text: 'go' }] }],
      metadata,
    }),
  );
const update = (metadata: unknown) => messageOf(() => validate(DeploymentUpdateRequest, { metadata }));

describe('one metadata rule for creation and update', () => {
  test('the same key mistake gets the same message', () => {
    for (const key of ['k'.repeat(65), '']) {
      expect(create({ [key]: 'v' })).toBe('metadata: keys must be 1 to 64 characters');
      expect(update({ [key]: 'v' })).toBe('metadata: keys must be 1 to 64 characters');
    }
    expect(create({ ['k'.repeat(64)]: 'v' })).toBe('no error');
    expect(update({ ['k'.repeat(64)]: 'v' })).toBe('no error');
  });

  test('values up to 512 characters, named by their key', () => {
    expect(create({ k: 'v'.repeat(513) })).toBe('metadata.k: must be at most 512 characters');
    expect(update({ k: 'v'.repeat(513) })).toBe('metadata.k: must be at most 512 characters');
  });

  test('16 pairs: in the request on creation, in the result on update', () => {
    const pairs = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));
    expect(create(pairs(16))).toBe('no error');
    expect(create(pairs(17))).toBe('metadata: must have at most 16 entries');
    expect(update(pairs(17))).toBe('no error');
    expect(() => applyMetadataPatch(pairs(16), { k16: 'v' })).toThrow('metadata: must have at most 16 entries after the update');
    expect(Object.keys(applyMetadataPatch(pairs(16), { k16: 'v', k0: null }))).toHaveLength(16);
  });
});
