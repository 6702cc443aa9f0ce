/**
 * A real git server on loopback for the repository tests: `git http-backend` (git's own smart
 * HTTP server) behind basic auth that takes one token, over a bare repository with a `main` and a
 * `feature` branch. Counts the requests it answered and those it refused.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface GitServer {
  url: string;
  port: number;
  token: string;
  /** From now on the server takes this token only (a rotated one). */
  setToken(token: string): void;
  /** The commit `main` was at when the server started (a commit checkout names it). */
  mainCommit: string;
  requests: { answered: number; refused: number };
  stop(): Promise<void>;
}

const git = (cwd: string, ...args: string[]) => {
  const out = Bun.spawnSync(['git', '-c', 'user.name=test', '-c', 'user.email=test@example.com', ...args], { cwd });
  if (out.exitCode !== 0) throw new Error(`git ${args.join(' ')}: ${out.stderr.toString()}`);
  return out.stdout.toString().trim();
};

/** `tls`: served over HTTPS with this key and certificate (for 127.0.0.1). */
export async function startGitServer(token: string, tls?: { key: string; cert: string }): Promise<GitServer> {
  const root = await mkdtemp(join(tmpdir(), 'git-server-'));
  const work = join(root, 'work');
  git(root, 'init', '--quiet', '--initial-branch=main', work);
  await writeFile(join(work, 'README.md'), 'the main branch\n');
  git(work, 'add', '.');
  git(work, 'commit', '--quiet', '-m', 'main');
  const mainCommit = git(work, 'rev-parse', 'HEAD');
  git(work, 'checkout', '--quiet', '-b', 'feature');
  await writeFile(join(work, 'README.md'), 'the feature branch\n');
  git(work, 'commit', '--quiet', '-am', 'feature');
  git(work, 'checkout', '--quiet', 'main');
  git(root, 'clone', '--quiet', '--bare', work, join(root, 'repo.git'));
  git(join(root, 'repo.git'), 'config', 'http.receivepack', 'true');

  const requests = { answered: 0, refused: 0 };
  let expected = `Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    ...(tls ? { tls } : {}),
    async fetch(request) {
      if (request.headers.get('authorization') !== expected) {
        requests.refused += 1;
        return new Response('token required\n', { status: 401, headers: { 'www-authenticate': 'Basic realm="git"' } });
      }
      requests.answered += 1;
      const url = new URL(request.url);
      const cgi = Bun.spawn(['git', 'http-backend'], {
        env: {
          GIT_PROJECT_ROOT: root,
          GIT_HTTP_EXPORT_ALL: '1',
          PATH_INFO: url.pathname,
          QUERY_STRING: url.search.slice(1),
          REQUEST_METHOD: request.method,
          CONTENT_TYPE: request.headers.get('content-type') ?? '',
          REMOTE_USER: 'x-access-token',
          PATH: process.env.PATH,
        },
        stdin: request.body ? new Uint8Array(await request.arrayBuffer()) : 'ignore',
        stdout: 'pipe',
      });
      const output = Buffer.from(await new Response(cgi.stdout).arrayBuffer());
      const split = output.indexOf('\r\n\r\n');
      const headers = new Headers();
      let status = 200;
      for (const line of output.subarray(0, split).toString().split('\r\n')) {
        const [name, ...rest] = line.split(':');
        if (name!.toLowerCase() === 'status') status = Number.parseInt(rest.join(':').trim(), 10);
        else if (name) headers.set(name, rest.join(':').trim());
      }
      return new Response(output.subarray(split + 4), { status, headers });
    },
  });
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${server.port}/repo.git`,
    port: server.port!,
    token,
    setToken: (next) => {
      expected = `Basic ${Buffer.from(`x-access-token:${next}`).toString('base64')}`;
    },
    mainCommit,
    requests,
    stop: async () => {
      server.stop(true);
      await rm(root, { recursive: true, force: true });
    },
  };
}
