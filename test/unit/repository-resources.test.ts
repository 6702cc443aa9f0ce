/**
 * Repository resources as the deployments service resolves them (issue 10, item 15): the URL
 * scheme against the ALLOW_HTTP_REPOSITORY_URLS setting, and mount paths in their one spelling.
 * The HTTP tests (test/foundation/hostile-values.test.ts) cover the default; this covers the
 * setting switched on without starting a second stack.
 */
import { expect, test } from 'bun:test';
import { checkRepositoryUrl, claimableMountPath, normaliseMountPath, resolveResources } from '../../services/deployments/src/domain/resources';
import type { SessionResourceParams } from '@shared/schema/deployment';

const repo = (url: string, mount_path?: string): SessionResourceParams => ({
  type: 'hosted_repository',
  url,
  authorization_token: 't',
  ...(mount_path ? { mount_path } : {}),
});

test('plain http:// is refused by default and accepted only when the setting allows it', () => {
  expect(() => resolveResources([repo('http://git.internal/acme/widgets.git')])).toThrow('resources.0.url: must be an https:// URL (plain http:// is not allowed)');
  const allowed = resolveResources([repo('http://git.internal/acme/widgets.git')], { allowHttpUrls: true });
  expect(allowed.configs[0]).toMatchObject({ url: 'http://git.internal/acme/widgets.git', mount_path: '/workspace/widgets' });
});

test('credentials in the URL are refused whatever the setting', () => {
  for (const allowHttpUrls of [false, true]) {
    expect(() => checkRepositoryUrl('https://user:pass@github.com/a/b.git', 'url', { allowHttpUrls })).toThrow('url: must be an https:// URL with a host and without credentials');
    expect(() => checkRepositoryUrl('http://token@git.internal/a/b.git', 'url', { allowHttpUrls })).toThrow('without credentials');
  }
  expect(() => checkRepositoryUrl('ftp://github.com/a/b.git', 'url', { allowHttpUrls: true })).toThrow('url: must be an https:// URL');
});

test('mount paths: one spelling, and .. is refused rather than resolved', () => {
  expect(normaliseMountPath('/x/./y//z/', 'p')).toBe('/x/y/z');
  expect(normaliseMountPath('/a/.../b', 'p')).toBe('/a/.../b');
  for (const bad of ['/a/../b', 'relative', '/a/\u0000', '/a\nb', '/a\rb', '/a\u007f', '/workspace/../etc']) {
    expect(() => normaliseMountPath(bad, 'p')).toThrow('p: must be an absolute path');
  }
  // Nested mounts are distinct paths: a file inside a checked-out repository.
  expect(resolveResources([repo('https://h/a.git', '/workspace/w'), repo('https://h/b.git', '/workspace/w/sub')]).configs.map((c) => ('mount_path' in c ? c.mount_path : null))).toEqual(['/workspace/w', '/workspace/w/sub']);
  expect(() => resolveResources([repo('https://h/a.git', '/workspace/x/./y'), repo('https://h/b.git', '/workspace/x/y/')])).toThrow(
    "resources.1.mount_path: '/workspace/x/y' is already used by resources.0",
  );
});

test('mount paths: only under /workspace/ or /mnt/session/, checked after normalising (issue 24)', () => {
  // Was: `/` and `/proc/self` accepted, a tenant's files over the sandbox's own system.
  for (const bad of ['/', '//', '/proc/self', '/etc/passwd', '/usr/bin', '/workspace', '/workspace/.', '//mnt/session/', '/mnt', '/mnt/sessions/x', '/workspacex/y', '/mnt/memory/x']) {
    expect(() => claimableMountPath(bad, 'resources.0.mount_path')).toThrow(/^resources\.0\.mount_path: '.*' must be an absolute path under \/workspace\/ or \/mnt\/session\//);
  }
  expect(() => resolveResources([repo('https://h/a.git', '/proc/self')])).toThrow("resources.0.mount_path: '/proc/self' must be an absolute path under");
  expect(() => resolveResources([{ type: 'file', file_id: 'file_1', mount_path: '/' }])).toThrow("resources.0.mount_path: '/' must be an absolute path under");
  for (const [path, normalised] of [
    ['/workspace/widgets', '/workspace/widgets'],
    ['//workspace/./widgets/', '/workspace/widgets'],
    ['/mnt/session/uploads/file_1', '/mnt/session/uploads/file_1'],
    ['/mnt/session/data.csv', '/mnt/session/data.csv'],
  ]) {
    expect(claimableMountPath(path, 'p')).toBe(normalised);
  }
  // Every default the product gives stays valid.
  const defaults = resolveResources([repo('https://github.com/acme/widgets.git'), { type: 'file', file_id: 'file_1' }]);
  expect(defaults.configs.map((c) => ('mount_path' in c ? c.mount_path : null))).toEqual(['/workspace/widgets', '/mnt/session/uploads/file_1']);
});
