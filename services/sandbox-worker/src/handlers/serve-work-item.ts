import { chmod, chown, mkdtemp, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@shared/log/logger';
import type { Work } from '@shared/schema/work';
import { forceStopWork } from '../clients/gateway-work';
import { sandboxEnvironment } from '../domain/sandbox-process';
import type { SessionOutcome } from '../metrics';
import { endLeftoverProcesses, processStartTime } from '../clients/process-control';
import type { SandboxWorkerDeps } from '../deps';

/** The program a session's process runs: the SDK's own worker over the one item (sandbox-session.ts). */
const SESSION_PROGRAM = join(import.meta.dir, '..', 'sandbox-session.ts');
/** The end of a failed process's stderr kept for the log. */
const STDERR_TAIL_BYTES = 4096;

/**
 * Serves one claimed item: a fresh scratch directory under SANDBOX_ROOT, a fresh process in it
 * (bun, in a process group of its own, as SANDBOX_RUN_AS_UID when configured) running the SDK's
 * EnvironmentWorker.handleItem() with nothing but the item's environment (domain/sandbox-process.ts),
 * until it exits, outlives SANDBOX_MAX_LIFETIME_MS (killed, its item stopped) or `kill` fires
 * (shutdown after the grace period: killed, its item left to lapse and be taken by another
 * worker). Whatever happens, everything the session started is killed afterwards, in its group
 * or detached from it (the SDK's own bash runs in a group of its own), and the directory
 * removed. Never throws: the outcome is counted and logged.
 */
export const serveWorkItem =
  (deps: SandboxWorkerDeps) =>
  async (item: Work, kill: AbortSignal): Promise<SessionOutcome> => {
    const logger = deps.logger.child({ work_id: item.id, session_id: item.data.id, environment_id: item.environment_id });
    const { config, identity } = deps;
    deps.metrics.setBusy(true);
    let scratch: string | undefined;
    let group: number | undefined;
    let startTime: number | undefined;
    let outcome: SessionOutcome = 'failed';
    const lifetime = timer(config.SANDBOX_MAX_LIFETIME_MS);
    const shutdown = abortion(kill);
    try {
      scratch = await mkdtemp(join(config.SANDBOX_ROOT, 'session-'));
      if (identity) await chown(scratch, identity.uid, identity.gid);
      await chmod(scratch, 0o700);
      const child = Bun.spawn(
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
      group = child.pid;
      startTime = await processStartTime(child.pid);
      logger.info('sandbox session started', { pid: child.pid });
      const stderr = tail(child.stderr, STDERR_TAIL_BYTES);
      const ended = await Promise.race([
        child.exited.then(() => 'exited' as const),
        lifetime.done.then(() => 'timed_out' as const),
        shutdown.done.then(() => 'killed' as const),
      ]);
      // The process, or what it left running (a background job of its shell), goes now.
      killGroup(group, logger);
      const code = await child.exited;
      if (ended === 'exited' && code === 0) outcome = 'served';
      else if (ended === 'exited') {
        const output = await Promise.race([stderr, Bun.sleep(1000).then(() => '(still open)')]);
        logger.warn('sandbox session failed', { exit_code: code, signal: child.signalCode, stderr: output });
      } else if (ended === 'timed_out') {
        outcome = 'timed_out';
        logger.warn('sandbox session outlived SANDBOX_MAX_LIFETIME_MS: killed, its work item stopped', { max_lifetime_ms: config.SANDBOX_MAX_LIFETIME_MS });
        await forceStopWork(config.SANDBOX_GATEWAY_URL, item).catch((err) => logger.error('stopping the work item failed', { error: err }));
      } else {
        outcome = 'killed';
        logger.warn('sandbox session killed at shutdown: its work item goes to another worker once its lease lapses');
      }
    } catch (err) {
      logger.error('sandbox session could not run', { error: err });
    } finally {
      lifetime.cancel();
      shutdown.cancel();
      if (group !== undefined) killGroup(group, logger);
      if (startTime !== undefined) {
        const left = await endLeftoverProcesses(startTime, logger).catch((err) => logger.error('ending what the session left running failed', { error: err }));
        if (left) logger.info('killed what the session left running', { processes: left });
      }
      if (scratch) await removeScratch(scratch).catch((err) => logger.error('removing the scratch directory failed', { scratch, error: err }));
      deps.metrics.countSession(outcome);
      deps.metrics.setBusy(false);
    }
    logger.info('sandbox session ended', { outcome });
    return outcome;
  };

/** Kills the whole process group; never throws, so the directory is removed whatever happens here. */
function killGroup(group: number, logger: Logger): void {
  try {
    process.kill(-group, 'SIGKILL');
  } catch (err) {
    // ESRCH: nothing of the group is left.
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') logger.error('killing the sandbox process group failed', { pid: group, error: err });
  }
}

/** Resolves after `ms`, unless cancelled (a session's lifetime must not leave an hour-long timer behind). */
function timer(ms: number): { done: Promise<void>; cancel(): void } {
  let handle: ReturnType<typeof setTimeout> | undefined;
  const done = new Promise<void>((resolve) => (handle = setTimeout(resolve, ms)));
  return { done, cancel: () => clearTimeout(handle) };
}

/** Resolves when `signal` aborts; cancel() removes the listener (the signal outlives every session). */
function abortion(signal: AbortSignal): { done: Promise<void>; cancel(): void } {
  let listener = () => {};
  const done = new Promise<void>((resolve) => {
    listener = () => resolve();
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', listener, { once: true });
  });
  return { done, cancel: () => signal.removeEventListener('abort', listener) };
}

/** The stream read to its end (so the process never blocks on a full pipe), keeping only its last `bytes`. */
async function tail(stream: ReadableStream<Uint8Array>, bytes: number): Promise<string> {
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
async function removeScratch(dir: string): Promise<void> {
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
