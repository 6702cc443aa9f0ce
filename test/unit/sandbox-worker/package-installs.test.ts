import { expect, test } from 'bun:test';
import { badPackageName, hasPackages, installScript, packagesKey, type PackageLists } from '../../../services/sandbox-worker/src/domain/package-installs';

const none: PackageLists = { apt: [], cargo: [], gem: [], go: [], npm: [], pip: [] };

test('the cache key is the lists: the same lists share one, any change makes another', () => {
  expect(hasPackages(none)).toBe(false);
  expect(hasPackages({ ...none, npm: ['is-number'] })).toBe(true);
  expect(packagesKey({ ...none, npm: ['is-number'] })).toBe(packagesKey({ ...none, npm: ['is-number'] }));
  expect(packagesKey({ ...none, npm: ['is-number'] })).not.toBe(packagesKey({ ...none, pip: ['is-number'] }));
  expect(packagesKey({ ...none, npm: ['a', 'b'] })).not.toBe(packagesKey({ ...none, npm: ['a', 'b@2'] }));
});

test('names a manager would take as an option, or that carry shell syntax, are refused before anything runs', () => {
  expect(badPackageName({ ...none, npm: ['is-number', 'lodash@4.17.21', '@scope/pkg'] })).toBeUndefined();
  for (const bad of ['--global', "x'; rm -rf /", 'a b', '$(id)', 'a;b', 'a|b']) expect(badPackageName({ ...none, pip: [bad] })).toContain('pip package');
});

test('the script installs each manager in turn into /opt/packages, and says which failed', () => {
  const script = installScript({ ...none, npm: ['is-number'], pip: ['requests'], go: ['golang.org/x/tools/cmd/stringer'] });
  expect(script).toContain("npm install --prefix /opt/packages/npm --no-audit --no-fund --no-update-notifier --loglevel=error 'is-number'");
  expect(script).toContain("--target /opt/packages/pip 'requests'");
  expect(script).toContain("go install 'golang.org/x/tools/cmd/stringer@latest'");
  expect(script).toContain('installing npm packages is-number failed');
  expect(script).toContain('go is not installed on this worker');
  expect(script.indexOf('pip install')).toBeLessThan(script.indexOf('npm install'));
  expect(installScript(none)).toBe('set -u');
});
