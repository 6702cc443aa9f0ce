import { lstat, readlink } from 'node:fs/promises';
import { bubblewrapArgs, type SandboxLayout, type SystemPath } from '../domain/sandbox-layout';
import type { SessionCgroup } from './cgroups';

/**
 * Starts a command in a bubblewrap sandbox (domain/sandbox-layout.ts says what is in it). When
 * this worker runs as root, the sandbox runs as the session's own `uid`: the first process joins
 * the session's control group (`cgroup`), takes RLIMIT_NPROC and RLIMIT_FSIZE (prlimit), drops to
 * the uid with no groups and no capabilities (setpriv), and only then becomes bwrap, which
 * unshares an unprivileged user namespace. Otherwise bwrap runs as the worker's user, still in
 * namespaces of its own. A process group of its own, so the worker can kill it whole.
 */
export interface SandboxSpawn {
  /** The bwrap program (SANDBOX_BWRAP), as bubblewrapVersion found it. */
  bwrap: string;
  layout: SandboxLayout;
  /** The session's uid (a worker running as root), else undefined. */
  uid?: number;
  cgroup?: SessionCgroup;
  pids: number;
  stdout?: 'pipe' | 'ignore';
}

/** Joins every control group named before `--`, then runs what follows. */
const JOIN_CGROUPS = 'while [ "$1" != "--" ]; do echo $$ > "$1" || exit 97; shift; done; shift; exec "$@"';

export function sandboxCommand(spawn: SandboxSpawn): string[] {
  let command = [spawn.bwrap, ...bubblewrapArgs(spawn.layout)];
  if (spawn.uid !== undefined) {
    const fsize = spawn.layout.diskBytes;
    command = ['prlimit', `--nproc=${spawn.pids}:${spawn.pids}`, `--fsize=${fsize}:${fsize}`, '--', 'setpriv', `--reuid=${spawn.uid}`, `--regid=${spawn.uid}`, '--clear-groups', '--', ...command];
  }
  if (spawn.cgroup) command = ['/bin/sh', '-c', JOIN_CGROUPS, 'sh', ...spawn.cgroup.procsFiles, '--', ...command];
  return command;
}

export function spawnSandbox(spawn: SandboxSpawn) {
  return Bun.spawn(sandboxCommand(spawn), {
    // What bwrap, prlimit and setpriv need to be found; the sandbox's own environment is layout.env.
    env: { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' },
    detached: true,
    stdin: 'ignore',
    stdout: spawn.stdout ?? 'ignore',
    stderr: 'pipe',
  });
}

/** The host's /bin, /lib, /lib64 and /sbin, read once at start: the sandbox shows them the same way. */
export async function readSystemPaths(): Promise<SystemPath[]> {
  const found: SystemPath[] = [];
  for (const path of ['/bin', '/sbin', '/lib', '/lib64', '/lib32', '/libx32']) {
    const stat = await lstat(path).catch(() => undefined);
    if (stat?.isSymbolicLink()) found.push({ path, kind: 'symlink', target: await readlink(path) });
    else if (stat?.isDirectory()) found.push({ path, kind: 'dir' });
  }
  return found;
}

/** bubblewrap's path and version, or undefined where it is not installed: the worker refuses cloud sessions without it. */
export function findBubblewrap(bwrap: string): { path: string; version: string } | undefined {
  const path = Bun.which(bwrap);
  if (!path) return undefined;
  const out = Bun.spawnSync([path, '--version']);
  return out.exitCode === 0 ? { path, version: out.stdout.toString().trim() } : undefined;
}
