import { chmod, chown, mkdtemp, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@shared/log/logger';
import type { Work } from '@shared/schema/work';
import { sandboxEnvironment, type SandboxIdentity } from '../domain/sandbox-process';
import type { SandboxWorkerConfig } from '../config';

/**
 * A session's process as the OS sees it: its scratch directory, the process started in it, its
 * process group killed, the directory removed. What to do with them is handlers/serve-work-item.ts's.
 */

/** The program a session's process runs: the SDK's own worker over the one item (session-program.ts). */
const SESSION_PROGRAM = join(import.meta.dir, 'session-program.ts');

/** A fresh scratch directory under `root`, the session's alone: owned by its user, closed to every other. */
export async function makeScratch(root: string, identity: SandboxIdentity | undefined): Promise<string> {
  const scratch = await mkdtemp(join(root, 'session-'));
  if (identity) await chown(scratch, identity.uid, identity.gid);
  await chmod(scratch, 0o700);
  return scratch;
}

/**
 * Starts the session's program in `scratch` (bun, in a process group of its own, as `identity`
 * when given) with nothing in its environment but the item's (domain/sandbox-process.ts).
 */
export function spawnSessionProcess(
  item: Work,
  scratch: string,
  config: Pick<SandboxWorkerConfig, 'SANDBOX_GATEWAY_URL' | 'SANDBOX_IDLE_MS' | 'SANDBOX_MAX_LIFETIME_MS'>,
  identity: SandboxIdentity | undefined,
) {
  return Bun.spawn(
    [process.execPath, SESSION_PROGRAM, '--idle-ms', String(config.SANDBOX_IDLE_MS), '--lifetime-ms', String(config.SANDBOX_MAX_LIFETIME_MS)],
    {
      cwd: scratch,
      env: sandboxEnvironment(item, { gatewayUrl: config.SANDBOX_GATEWAY_URL, path: process.env.PATH ?? '/usr/bin:/bin', scratch }),
      ...(identity ? { uid: identity.uid, gid: identity.gid } : {}),
      // A group of its own, killed whole at the end (what detaches from it is found by endLeftoverProcesses).
      detached: true,
      stdin: 'ignore',
      stdout: 'ignore',
      stderr: 'pipe',
    },
  );
}

/** Kills the whole process group; never throws, so the directory is removed whatever happens here. */
export function killGroup(group: number, logger: Logger): void {
  try {
    process.kill(-group, 'SIGKILL');
  } catch (err) {
    // ESRCH: nothing of the group is left.
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') logger.error('killing the sandbox process group failed', { pid: group, error: err });
  }
}

/** The stream read to its end (so the process never blocks on a full pipe), keeping only its last `bytes`. */
export async function tail(stream: ReadableStream<Uint8Array>, bytes: number): Promise<string> {
  let kept = new Uint8Array(0);
  for await (const chunk of stream) {
    const joined = new Uint8Array(kept.length + chunk.length);
    joined.set(kept);
    joined.set(chunk, kept.length);
    kept = joined.slice(Math.max(0, joined.length - bytes));
  }
  return new TextDecoder().decode(kept);
}

/**
 * Removes the directory and everything the session put in it, also what it made unreadable to
 * itself (a directory chmod 000 stops a plain recursive removal by a worker without root).
 */
export async function removeScratch(dir: string): Promise<void> {
  try {
    await rm(dir, { recursive: true, force: true });
  } catch {
    await unlock(dir);
    await rm(dir, { recursive: true, force: true });
  }
}

async function unlock(dir: string): Promise<void> {
  await chmod(dir, 0o700).catch(() => undefined);
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    if (entry.isDirectory() && !entry.isSymbolicLink()) await unlock(join(dir, entry.name));
  }
}
