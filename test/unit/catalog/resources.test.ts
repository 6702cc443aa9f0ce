import { describe, expect, test } from 'bun:test';
import { applyEnvironmentUpdate, newEnvironment, normalizeCloudConfig, normalizeConfig } from '../../../services/catalog/src/domain/environment';
import { decodeBase64, FILE_CHUNK_BYTES, splitIntoChunks } from '../../../services/catalog/src/domain/file-chunks';
import { applyMemoryStoreUpdate, newMemoryStore } from '../../../services/catalog/src/domain/memory-store';
import { newRowColumns } from '@shared/db/columns';
import { referenceState } from '../../../services/catalog/src/domain/reference-state';

const tenant = { organization_id: 'org_1', workspace_id: 'wrkspc_1', scope: 'read_write' as const, key_id: 'k' };
const t0 = new Date('2026-01-01T00:00:00.000Z');
const t1 = new Date('2026-01-02T00:00:00.000Z');

describe('environment config', () => {
  test('no config is unrestricted with empty package lists', () => {
    expect(normalizeCloudConfig(undefined)).toEqual({
      type: 'cloud',
      networking: { type: 'unrestricted' },
      packages: { type: 'packages', apt: [], cargo: [], gem: [], go: [], npm: [], pip: [] },
    });
  });

  test('limited networking fills its defaults; given packages are kept, null lists are empty', () => {
    const config = normalizeCloudConfig({
      type: 'cloud',
      networking: { type: 'limited', allowed_hosts: ['a.example'], allow_mcp_servers: null },
      packages: { npm: ['left-pad'], pip: null },
    });
    expect(config.networking).toEqual({ type: 'limited', allow_mcp_servers: false, allow_package_managers: false, allowed_hosts: ['a.example'] });
    expect(config.packages).toMatchObject({ npm: ['left-pad'], pip: [] });
  });

  test('self_hosted is stored as given; a cloud config or none gets the cloud defaults', () => {
    expect(normalizeConfig({ type: 'self_hosted' })).toEqual({ type: 'self_hosted' });
    expect(normalizeConfig({ type: 'cloud' })).toEqual(normalizeCloudConfig(null));
    expect(normalizeConfig(null)).toEqual(normalizeCloudConfig(null));
  });
});

describe('environment and memory store rows', () => {
  const columns = newRowColumns('env_1', tenant, t0);

  test('new rows carry the tenant and start unarchived, created and updated now', () => {
    expect(columns).toEqual({ id: 'env_1', organizationId: 'org_1', workspaceId: 'wrkspc_1', createdAt: t0, updatedAt: t0, archivedAt: null });
    expect(newEnvironment({ name: 'e' }, columns)).toMatchObject({ description: null, metadata: {}, config: normalizeCloudConfig(null) });
    expect(newMemoryStore({ name: 'm' }, columns)).toMatchObject({ description: '', metadata: {} });
  });

  test('environment update: null name keeps it, null description clears it, config is replaced whole', () => {
    const env = newEnvironment({ name: 'e', description: 'd', config: { type: 'cloud', packages: { npm: ['x'] } } }, columns);
    const next = applyEnvironmentUpdate(env, { name: null, description: null, config: null }, t1);
    expect(next).toMatchObject({ name: 'e', description: null, updatedAt: t1, createdAt: t0 });
    expect(next.config).toEqual(normalizeCloudConfig(null));
    expect(applyEnvironmentUpdate(env, {}, t1).config).toMatchObject({ type: 'cloud', packages: { npm: ['x'] } });
  });

  test("environment update: config's type is fixed at creation (invalid_config_type_change); omitted keeps it", () => {
    const cloud = newEnvironment({ name: 'e', config: { type: 'cloud', packages: { npm: ['x'] } } }, columns);
    const selfHosted = newEnvironment({ name: 's', config: { type: 'self_hosted' } }, columns);
    expect(applyEnvironmentUpdate(selfHosted, { name: 'renamed' }, t1).config).toEqual({ type: 'self_hosted' });
    expect(applyEnvironmentUpdate(selfHosted, { config: { type: 'self_hosted' } }, t1).config).toEqual({ type: 'self_hosted' });
    expect(applyEnvironmentUpdate(cloud, { config: null }, t1).config).toEqual(normalizeCloudConfig(null));
    for (const [from, to] of [
      [cloud, { type: 'self_hosted' }],
      [selfHosted, { type: 'cloud' }],
      [selfHosted, null],
    ] as const) {
      let details: unknown;
      expect(() => {
        try {
          applyEnvironmentUpdate(from, { config: to }, t1);
        } catch (err) {
          details = (err as { details?: unknown }).details;
          throw err;
        }
      }).toThrow('cannot change after creation');
      expect(details).toEqual({ error_code: 'invalid_config_type_change' });
    }
  });

  test('memory store update: null description clears it to the empty string', () => {
    const store = newMemoryStore({ name: 'm', description: 'd', metadata: { a: '1' } }, columns);
    expect(applyMemoryStoreUpdate(store, { description: null, metadata: { b: '2' } }, t1)).toMatchObject({
      name: 'm',
      description: '',
      metadata: { a: '1', b: '2' },
    });
  });

  test('archived environments and memory stores are frozen', () => {
    const archived = { ...columns, archivedAt: t0 };
    expect(() => applyEnvironmentUpdate(newEnvironment({ name: 'e' }, archived as never), {}, t1)).toThrow(
      'environment env_1 is archived and cannot be updated',
    );
    expect(() => applyMemoryStoreUpdate(newMemoryStore({ name: 'm' }, archived as never), {}, t1)).toThrow(
      'memory store env_1 is archived and cannot be updated',
    );
  });

  test('reference state: missing is not_found, archived is archived, else ok', () => {
    expect(referenceState(undefined)).toBe('not_found');
    expect(referenceState({ archivedAt: t0 })).toBe('archived');
    expect(referenceState({ archivedAt: null })).toBe('ok');
  });
});

describe('file chunks', () => {
  test('chunks are at most FILE_CHUNK_BYTES and cover the content in order', () => {
    const content = Buffer.alloc(FILE_CHUNK_BYTES * 2 + 1, 1);
    const chunks = splitIntoChunks(content);
    expect(chunks.map((c) => c.length)).toEqual([FILE_CHUNK_BYTES, FILE_CHUNK_BYTES, 1]);
    expect(Buffer.concat(chunks).equals(content)).toBe(true);
    expect(splitIntoChunks(Buffer.alloc(FILE_CHUNK_BYTES)).length).toBe(1);
  });

  test('base64 is strict: bad length, bad characters and misplaced padding are refused', () => {
    expect(decodeBase64('')?.length).toBe(0);
    expect(decodeBase64('aGVsbG8=')?.toString()).toBe('hello');
    expect(decodeBase64('aGVsbG8')).toBeUndefined();
    expect(decodeBase64('aGV sbG8=')).toBeUndefined();
    expect(decodeBase64('aG=sbG8=')).toBeUndefined();
  });
});
