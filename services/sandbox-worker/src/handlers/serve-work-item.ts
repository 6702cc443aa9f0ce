import { forceStopWork } from '../clients/gateway-work';
import { PackageInstallError } from '../clients/package-cache';
import { endLeftoverProcesses, processStartTime } from '../clients/process-control';
import { killGroup, makeScratch, removeScratch, spawnSessionProcess, tail } from '../clients/session-process';
import type { ClaimedWork } from '@shared/schema/sandbox-policy';
import { currentRepositoryTokens } from '../clients/repository-tokens';
import { MountFailure, sessionMountPreparation } from '../clients/session-mounts';
import { startSessionSandbox } from '../clients/session-sandbox';
import { hasPackages } from '../domain/package-installs';
import type { SessionOutcome } from '../domain/session-outcome';
import type { SandboxWorkerDeps } from '../deps';

/** The end of a failed process's stderr kept for the log. */
const STDERR_TAIL_BYTES = 4096;

/** A started session, however it is isolated: its process, and how to undo everything around it. */
interface StartedSession {
  child: { pid: number; exited: Promise<number>; stderr: ReadableStream<Uint8Array>; signalCode: unknown };
  close(): Promise<void>;
}

class SetupFailure extends Error {}

/**
 * Serves one claimed item: its session's program (the SDK's EnvironmentWorker.handleItem() for
 * the item) started in the session's sandbox (clients/session-sandbox.ts; with
 * SANDBOX_ISOLATION=none, a plain process in a scratch directory), after its environment's
 * packages are in the cache, until it exits, outlives SANDBOX_MAX_LIFETIME_MS (killed, its item
 * stopped) or `kill` fires (shutdown after the grace period: killed, its item left to lapse and
 * be taken by another worker). A session that cannot start (its packages failed to install, or
 * no sandbox can be made here) is failed on the session with the reason (a session.error), not
 * left for another worker to fail again. Whatever happens, everything the session started is
 * killed afterwards and its directories removed. Never throws: the outcome is counted and logged.
 */
export const serveWorkItem =
  (deps: SandboxWorkerDeps) =>
  async (claimed: ClaimedWork, kill: AbortSignal): Promise<SessionOutcome> => {
    const item = claimed.work;
    const logger = deps.logger.child({ work_id: item.id, session_id: item.data.id, environment_id: item.environment_id });
    const { config } = deps;
    deps.metrics.setBusy(true);
    let session: StartedSession | undefined;
    let startTime: number | undefined;
    let outcome: SessionOutcome = 'failed';
    const lifetime = timer(config.SANDBOX_MAX_LIFETIME_MS);
    const shutdown = abortion(kill);
    try {
      session = await startSession(deps, claimed);
      const { child } = session;
      startTime = await processStartTime(child.pid);
      logger.info('sandbox session started', { pid: child.pid, isolation: deps.isolation.kind });
      const stderr = tail(child.stderr, STDERR_TAIL_BYTES);
      const ended = await Promise.race([
        child.exited.then(() => 'exited' as const),
        lifetime.done.then(() => 'timed_out' as const),
        shutdown.done.then(() => 'killed' as const),
      ]);
      // The process, or what it left running (a background job of its shell), goes now.
      killGroup(child.pid, logger);
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
      if (err instanceof SetupFailure) {
        outcome = 'setup_failed';
        logger.warn('sandbox session could not start: failed on the session', { reason: err.message });
        await deps.claims.fail(item, err.message).catch((error) => logger.error('failing the session failed', { error }));
      } else logger.error('sandbox session could not run', { error: err });
    } finally {
      lifetime.cancel();
      shutdown.cancel();
      if (session) killGroup(session.child.pid, logger);
      if (startTime !== undefined) {
        const left = await endLeftoverProcesses(startTime, logger).catch((err) => logger.error('ending what the session left running failed', { error: err }));
        if (left) logger.info('killed what the session left running', { processes: left });
      }
      await session?.close().catch((err) => logger.error('removing the session failed', { error: err }));
      deps.metrics.countSession(outcome);
      deps.metrics.setBusy(false);
    }
    logger.info('sandbox session ended', { outcome });
    return outcome;
  };

async function startSession(deps: SandboxWorkerDeps, claimed: ClaimedWork): Promise<StartedSession> {
  const { isolation, config } = deps;
  const { work: item, sandbox: policy } = claimed;
  if (isolation.kind === 'unavailable') throw new SetupFailure(`this session's environment cannot run: ${isolation.reason}`);
  if (isolation.kind === 'none') {
    const scratch = await makeScratch(config.SANDBOX_ROOT, deps.identity);
    return { child: spawnSessionProcess(item, scratch, config, deps.identity), close: () => removeScratch(scratch) };
  }
  let packages: string | undefined;
  try {
    if (hasPackages(policy.packages)) packages = await isolation.packages.ensure(policy.packages);
  } catch (err) {
    if (err instanceof PackageInstallError) throw new SetupFailure(err.message);
    throw err;
  }
  const program = { program: isolation.program, bun: isolation.bun };
  const mounts = sessionMountPreparation(isolation.host, deps.bus, claimed, program, (error) => deps.claims.reportRepository(item, error));
  try {
    const box = await startSessionSandbox(isolation.host, item, policy, packages, { config, ...program, currentToken: currentRepositoryTokens(deps.bus, claimed) }, claimed.mounts, claimed.secrets, mounts);
    return { child: box.process, close: box.close };
  } catch (err) {
    if (err instanceof MountFailure) throw new SetupFailure(err.message);
    throw err;
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
