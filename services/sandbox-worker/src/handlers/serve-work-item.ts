import type { Work } from '@shared/schema/work';
import { forceStopWork } from '../clients/gateway-work';
import { endLeftoverProcesses, processStartTime } from '../clients/process-control';
import { killGroup, makeScratch, removeScratch, spawnSessionProcess, tail } from '../clients/session-process';
import type { SessionOutcome } from '../domain/session-outcome';
import type { SandboxWorkerDeps } from '../deps';

/** The end of a failed process's stderr kept for the log. */
const STDERR_TAIL_BYTES = 4096;

/**
 * Serves one claimed item: a fresh scratch directory under SANDBOX_ROOT, a fresh process in it
 * (bun, in a process group of its own, as SANDBOX_RUN_AS_UID when configured) running the SDK's
 * EnvironmentWorker.handleItem() with nothing but the item's environment (clients/session-process.ts,
 * domain/sandbox-process.ts), until it exits, outlives SANDBOX_MAX_LIFETIME_MS (killed, its item stopped) or `kill` fires
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
      scratch = await makeScratch(config.SANDBOX_ROOT, identity);
      const child = spawnSessionProcess(item, scratch, config, identity);
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
