import { access, chmod, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { badPackageName, installScript, packagesKey, type PackageLists } from '../domain/package-installs';
import { INSIDE, insidePath, PROXY_PORT, proxyEnvironment } from '../domain/sandbox-layout';
import { startSandbox, type SandboxHost } from './sandbox';
import { tail } from './session-process';

/**
 * The environments' package caches (domain/package-installs.ts): `<root>/<key>`, made once by an
 * install in a sandbox whose only way out is the package registries, into a temporary directory
 * renamed into place when it succeeded (a crash mid-install leaves no half cache behind; two
 * workers racing both install, one rename wins). Within one worker, sessions waiting for the same
 * install share it.
 */
export class PackageInstallError extends Error {}

export interface PackageCache {
  /** The cache directory for `lists`, installed first if needed; throws PackageInstallError naming what failed. */
  ensure(lists: PackageLists): Promise<string>;
}

/** The end of an install's output kept in the session.error: the tool's own words about the package. */
const OUTPUT_TAIL_BYTES = 1500;

export function packageCache(host: SandboxHost, options: { root: string; program: string; bun: string; timeoutMs: number }): PackageCache {
  const installing = new Map<string, Promise<string>>();

  async function install(lists: PackageLists, key: string): Promise<string> {
    const done = join(options.root, key);
    if (await present(done)) return done;
    const bad = badPackageName(lists);
    if (bad) throw new PackageInstallError(bad);
    await mkdir(options.root, { recursive: true, mode: 0o755 });
    const scratch = await mkdtemp(join(options.root, `${key}.installing-`));
    try {
      // Writable by the install's uid, leased when its sandbox starts; no session mounts this directory, and the worker's root alone reaches it.
      await chmod(scratch, 0o777);
      const box = await startSandbox(host, {
        scope: { networking: { type: 'limited', allowed_hosts: [], allow_package_managers: true, allow_mcp_servers: false }, mcpHosts: [] },
        env: { ...proxyEnvironment(), PATH: insidePath([]), HOME: INSIDE.tmp, LANG: 'C.UTF-8' },
        command: [INSIDE.bun, INSIDE.program, '--proxy-port', String(PROXY_PORT), '--exec', '--', '/bin/sh', '-c', `umask 022\n${installScript(lists)}`],
        readOnly: [{ host: options.bun, inside: INSIDE.bun }, { host: options.program, inside: INSIDE.program }, ...(await aptLists())],
        writable: [{ host: scratch, inside: INSIDE.packages }],
      });
      try {
        const output = tail(box.process.stderr, OUTPUT_TAIL_BYTES);
        const timer = setTimeout(() => box.process.kill('SIGKILL'), options.timeoutMs);
        const code = await box.process.exited;
        clearTimeout(timer);
        if (code !== 0) throw new PackageInstallError(`the environment's packages could not be installed: ${(await output).trim() || `exit code ${code}`}`);
      } finally {
        await box.close();
      }
      // The cache belongs to the worker from now on: sessions, whatever their uid, only read it.
      if (process.getuid?.() === 0) Bun.spawnSync(['chown', '-R', '0:0', scratch]);
      await chmod(scratch, 0o755);
      await rename(scratch, done).catch(async (err) => {
        if (!(await present(done))) throw err;
      });
      return done;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  return {
    ensure(lists) {
      const key = packagesKey(lists);
      let pending = installing.get(key);
      if (!pending) {
        pending = install(lists, key).finally(() => installing.delete(key));
        installing.set(key, pending);
      }
      return pending;
    },
  };
}

async function present(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** apt downloads read the machine's package lists, read-only, where it has them. */
async function aptLists(): Promise<{ host: string; inside: string }[]> {
  const lists = '/var/lib/apt/lists';
  return (await present(lists)) ? [{ host: lists, inside: lists }] : [];
}
