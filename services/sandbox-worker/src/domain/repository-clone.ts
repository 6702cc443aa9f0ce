import type { SessionMounts } from '@shared/schema/sandbox-policy';

/**
 * A session's repository, cloned before the session starts, outside its sandbox: by a git in a
 * sandbox of its own whose only way out is the repository's host, with the token in git's
 * configuration from the environment (an `http.extraHeader`), never in the remote URL, a file,
 * an argument or the clone's .git/config. What is left in the clone names the plain URL only.
 */
export type Repository = SessionMounts['repositories'][number];

export const CLONE_DIR = '/clone';

/** git's configuration from the environment (GIT_CONFIG_COUNT and pairs): no file, no argument holds the token. */
export function cloneEnvironment(token: string | null): Record<string, string> {
  // The clone directory is the worker's, not the clone's uid's: git would otherwise refuse to work in it.
  const base = { GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '/bin/false', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_KEY_0: 'safe.directory', GIT_CONFIG_VALUE_0: CLONE_DIR };
  if (!token) return { ...base, GIT_CONFIG_COUNT: '1' };
  return { ...base, GIT_CONFIG_COUNT: '2', GIT_CONFIG_KEY_1: 'http.extraHeader', GIT_CONFIG_VALUE_1: `Authorization: ${basicAuthorization(token)}` };
}

/** The header a git host takes a token in (GitHub, GitLab, Gitea and git http-backend behind basic auth alike). */
export function basicAuthorization(token: string): string {
  return `Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
}

/** The clone, then the commit when one is asked for: a shell script over positional arguments (no value is spliced into it). */
export function cloneCommand(repository: Repository): string[] {
  const { checkout } = repository;
  if (checkout?.type === 'branch') return ['git', 'clone', '--quiet', '--branch', checkout.name, '--', repository.url, CLONE_DIR];
  if (checkout?.type === 'commit') return ['/bin/sh', '-c', 'git clone --quiet -- "$1" "$2" && cd "$2" && git -c advice.detachedHead=false checkout --quiet "$3"', 'clone', repository.url, CLONE_DIR, checkout.sha];
  return ['git', 'clone', '--quiet', '--', repository.url, CLONE_DIR];
}

export type CloneErrorType =
  | 'repository_authentication_error'
  | 'repository_forbidden_error'
  | 'repository_not_found_error'
  | 'repository_checkout_error'
  | 'repository_clone_error';

/** The SDK's error kind for what git said when the clone failed. */
export function cloneFailure(stderr: string, repository: Repository): { type: CloneErrorType; message: string } {
  const said = stderr.trim().split('\n').slice(-3).join(' ').slice(0, 600);
  const where = `repository ${repository.url}`;
  if (repository.authorization_token === null) return { type: 'repository_authentication_error', message: `${where}: its authorization token could not be read; rotate it on the session` };
  if (/\b401\b|Authentication failed|could not read Username/i.test(stderr)) return { type: 'repository_authentication_error', message: `${where}: the token was refused (${said})` };
  if (/\b403\b|forbidden|egress to .* refused/i.test(stderr)) return { type: 'repository_forbidden_error', message: `${where}: access is forbidden (${said})` };
  if (/\b404\b|not found|does not exist|Could not resolve host/i.test(stderr) && !/Remote branch/i.test(stderr)) return { type: 'repository_not_found_error', message: `${where}: not found (${said})` };
  if (/Remote branch|did not match any|reference is not a tree|unknown revision|pathspec/i.test(stderr)) return { type: 'repository_checkout_error', message: `${where}: the checkout failed (${said})` };
  return { type: 'repository_clone_error', message: `${where}: the clone failed (${said})` };
}
