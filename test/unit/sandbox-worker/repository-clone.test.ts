import { expect, test } from 'bun:test';
import { basicAuthorization, cloneCommand, cloneEnvironment, cloneFailure, type Repository } from '../../../services/sandbox-worker/src/domain/repository-clone';
import { withAuthorization } from '../../../services/sandbox-worker/src/domain/proxy-request';
import { addressVerdict } from '../../../services/sandbox-worker/src/domain/egress-rules';

const repo = (over: Partial<Repository> = {}): Repository => ({ resource_id: 'sesrsc_1', url: 'https://git.example.com/a/b.git', mount_path: '/workspace/b', checkout: null, authorization_token: 'tok', ...over });

test("the token is in git's environment only, never an argument or the URL", () => {
  const env = cloneEnvironment('secret-token');
  expect(env.GIT_CONFIG_VALUE_1).toBe(`Authorization: ${basicAuthorization('secret-token')}`);
  expect(env).toMatchObject({ GIT_CONFIG_COUNT: '2', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_KEY_0: 'safe.directory' });
  for (const checkout of [null, { type: 'branch' as const, name: 'dev' }, { type: 'commit' as const, sha: 'abcdef1' }]) {
    expect(cloneCommand(repo({ checkout })).join(' ')).not.toContain('tok');
  }
  expect(cloneCommand(repo({ checkout: { type: 'branch', name: 'dev' } }))).toEqual(['git', 'clone', '--quiet', '--branch', 'dev', '--', 'https://git.example.com/a/b.git', '/clone']);
  expect(cloneEnvironment(null).GIT_CONFIG_COUNT).toBe('1');
});

test.each([
  ['fatal: Authentication failed for https://git.example.com/a/b.git/', 'repository_authentication_error'],
  ['fatal: unable to access ...: The requested URL returned error: 403', 'repository_forbidden_error'],
  ['fatal: unable to access ...: CONNECT tunnel failed, response 403', 'repository_forbidden_error'],
  ['remote: Repository not found.\nfatal: repository https://git.example.com/a/b.git/ not found', 'repository_not_found_error'],
  ['warning: Could not find remote branch nope to clone.\nfatal: Remote branch nope not found in upstream origin', 'repository_checkout_error'],
  ["error: pathspec 'deadbeef' did not match any file(s) known to git", 'repository_checkout_error'],
  ['fatal: early EOF', 'repository_clone_error'],
])('%s -> %s', (stderr, type) => {
  const failure = cloneFailure(stderr, repo());
  expect(failure.type as string).toBe(type);
  expect(failure.message).toContain('https://git.example.com/a/b.git');
});

test('an unreadable token is an authentication error before anything runs', () => {
  expect(cloneFailure('', repo({ authorization_token: null })).type).toBe('repository_authentication_error');
});

test('the proxy replaces any authorization the client sent and closes the connection after the answer', () => {
  const head = Buffer.from('GET /a/b.git/info/refs HTTP/1.1\r\nHost: x\r\nAuthorization: Basic forged\r\nConnection: keep-alive\r\n\r\n');
  expect(withAuthorization(head, 'Basic real').toString()).toBe('GET /a/b.git/info/refs HTTP/1.1\r\nHost: x\r\nAuthorization: Basic real\r\nConnection: close\r\n\r\n');
});

test("an operator's internal host opens that address and port only, never a denied one", () => {
  const scope = { networking: { type: 'unrestricted' as const }, mcpHosts: [] };
  const closed = { local: [], denied: [{ address: '127.0.0.1', port: 3306 }], opened: [{ address: '127.0.0.1', port: 9418 }, { address: '127.0.0.1', port: 3306 }] };
  expect(addressVerdict('127.0.0.1', { host: 'git', port: 9418 }, scope, closed, []).allowed).toBe(true);
  expect(addressVerdict('127.0.0.1', { host: 'git', port: 9419 }, scope, closed, []).allowed).toBe(false);
  expect(addressVerdict('127.0.0.1', { host: 'db', port: 3306 }, scope, closed, []).allowed).toBe(false);
});
