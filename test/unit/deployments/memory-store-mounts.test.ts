import { describe, expect, test } from 'bun:test';
import { resolveResources } from '../../../services/deployments/src/domain/resources';
import { attachMemoryStores } from '../../../services/deployments/src/domain/session-resources';

const mount = (id: string) => ({ type: 'memory_store' as const, memory_store_id: id });
const snapshots = new Map([
  ['memstore_a', { name: 'User Preferences', description: 'likes' }],
  ['memstore_b', { name: 'user preferences', description: '' }],
  ['memstore_c', { name: '../..', description: '' }],
]);

describe('memory stores as a session attaches them', () => {
  test('a snapshot of the name and description, mounted under /mnt/memory by name, the id where the name is taken or empty', () => {
    const attached = attachMemoryStores(resolveResources([mount('memstore_a'), mount('memstore_b'), mount('memstore_c')]).configs, snapshots);
    expect(attached).toEqual([
      { type: 'memory_store', memory_store_id: 'memstore_a', access: 'read_write', instructions: null, name: 'User Preferences', description: 'likes', mount_path: '/mnt/memory/user-preferences' },
      { type: 'memory_store', memory_store_id: 'memstore_b', access: 'read_write', instructions: null, name: 'user preferences', description: '', mount_path: '/mnt/memory/memstore_b' },
      { type: 'memory_store', memory_store_id: 'memstore_c', access: 'read_write', instructions: null, name: '../..', description: '', mount_path: '/mnt/memory/memstore_c' },
    ]);
  });

  test('a store added later does not take a directory the session already mounts', () => {
    const [first] = attachMemoryStores(resolveResources([mount('memstore_a')]).configs, snapshots);
    const [added] = attachMemoryStores(resolveResources([mount('memstore_b')]).configs, snapshots, [first!]);
    expect((added as { mount_path: string }).mount_path).toBe('/mnt/memory/memstore_b');
  });

  test('at most 8 in one list, with a 400 naming the ninth', () => {
    const nine = Array.from({ length: 9 }, (_, i) => mount(`memstore_${i}`));
    expect(() => resolveResources(nine.slice(0, 8))).not.toThrow();
    expect(() => resolveResources(nine)).toThrow('resources.8.memory_store_id: a session mounts at most 8 memory stores');
  });
});
