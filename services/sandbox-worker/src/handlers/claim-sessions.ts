import type { ClaimedWork } from '@shared/schema/sandbox-policy';
import { wakeablePause } from '@shared/service-host/wakeable-pause';
import { claimBackoffMs } from '../domain/claim-backoff';
import type { SessionOutcome } from '../domain/session-outcome';
import type { SandboxWorkerDeps } from '../deps';

export interface ClaimLoop {
  /**
   * Stops claiming, lets the session in progress run up to `drainMs`, then kills it (its item's
   * lease lapses and another worker takes it); resolves once its directory is gone.
   */
  stop(drainMs: number): Promise<void>;
}

/**
 * The sandbox worker's standing use case: claim one session (a long poll of the runtime), have it
 * served to its end (`serve`, handlers/serve-work-item.ts, given by service.ts: no handler imports
 * another), claim the next. One session at a time per worker: a worker is one sandbox, and the
 * runtime's queue-depth gauge scales the number of workers. While claims fail (no runtime
 * answers), or sessions fail to run (a worker that cannot start them would otherwise take the
 * whole queue, item after item, each then waiting out its lease), it backs off
 * (domain/claim-backoff.ts).
 */
export function claimSessions(
  deps: SandboxWorkerDeps,
  steps: { claim: () => Promise<ClaimedWork | null>; serve: (claimed: ClaimedWork, kill: AbortSignal) => Promise<SessionOutcome> },
): ClaimLoop {
  const logger = deps.logger.child({ worker: deps.config.SANDBOX_WORKER_ID });
  const kill = new AbortController();
  let stopping = false;
  const { pause, wake } = wakeablePause();

  async function loop(): Promise<void> {
    let failures = 0;
    const backOff = () => pause(claimBackoffMs(failures));
    while (!stopping) {
      let claimed: ClaimedWork | null;
      try {
        claimed = await steps.claim();
      } catch (err) {
        failures += 1;
        deps.metrics.countClaimFailure();
        logger.warn('claiming a session failed', { error: err, failures });
        await backOff();
        continue;
      }
      if (!claimed) {
        failures = 0;
        continue;
      }
      if (stopping) {
        logger.warn('a session claimed while shutting down is not started: another worker takes it once its lease lapses', { work_id: claimed.work.id });
        return;
      }
      if ((await steps.serve(claimed, kill.signal)) === 'failed') {
        failures += 1;
        await backOff();
      } else failures = 0;
    }
  }

  const running = loop().catch((err) => logger.error('the claim loop ended', { error: err }));
  return {
    async stop(drainMs: number): Promise<void> {
      stopping = true;
      wake();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const drained = await Promise.race([running.then(() => true), new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), drainMs)))]);
      clearTimeout(timer);
      if (!drained) {
        kill.abort();
        await running;
      }
    },
  };
}
