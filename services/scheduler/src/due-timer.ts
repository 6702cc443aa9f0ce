import { wakeablePause } from '@shared/service-host/wakeable-pause';
import { earliestFireAt } from './db/earliest-fire-at';
import type { RoundOptions, RoundSummary } from './handlers/fire-due-schedules';
import type { SchedulerDeps } from './deps';

const MAX_BACKOFF_MS = 30_000;
const BACKLOG_REFRESH_MS = 5_000;
const MIN_SLEEP_MS = 10;
/**
 * Rounds of one worker whose fires are still waiting for their time or their replies. Each
 * holds at most SCHEDULER_BATCH_SIZE claims, so this bounds the fires one worker has in
 * flight; beyond it the worker stops claiming until a round settles, leaving due rows to the
 * other workers.
 */
const MAX_ROUNDS_IN_FLIGHT = 8;

export interface DueTimer {
  /** Finishes the rounds in flight (their claims settle normally), then returns. */
  stop(): Promise<void>;
}

/**
 * What triggers the scheduler's rounds, as a bus server triggers another service's handlers.
 * A round claims the rows due within the lookahead and then waits for their fire times and
 * replies; the timer does not wait with it: as soon as a round has claimed, the next claim is
 * planned, so claiming, firing and settling overlap (at most MAX_ROUNDS_IN_FLIGHT rounds).
 * The next claim comes at once after a full batch; otherwise when the earliest unclaimed row
 * enters the lookahead, but not sooner than half the lookahead (the rows claimed then are
 * still at least that far from their fire time, and each claim serves a useful number of rows;
 * a shorter poll interval wins) and never later than the poll interval (new rows may come
 * sooner). While rounds fail the
 * timer backs off exponentially, so a struggling deployments service or database is not
 * hammered. It refreshes the backlog gauge every few seconds.
 */
export function startDueTimer(
  deps: SchedulerDeps,
  handlers: { round: (options?: RoundOptions) => Promise<RoundSummary>; measureBacklog: () => Promise<number> },
): DueTimer {
  const { db, clock, config } = deps;
  const logger = deps.logger.child({ worker: config.SCHEDULER_WORKER_ID });
  const lookahead = config.SCHEDULER_LOOKAHEAD_MS;
  // Half the lookahead between claims, unless the poll interval asks for less.
  const minSleep = Math.max(MIN_SLEEP_MS, Math.min(config.SCHEDULER_POLL_MS, Math.floor(lookahead / 2)));
  const rounds = new Set<Promise<void>>();
  let stopped = false;
  let failures = 0;
  const { pause: sleep, wake } = wakeablePause();

  async function untilNextClaim(): Promise<number> {
    const next = await earliestFireAt(db);
    if (!next) return config.SCHEDULER_POLL_MS;
    // At least a few ms: a row still unclaimed-looking is being claimed by another worker right now.
    return Math.max(minSleep, Math.min(config.SCHEDULER_POLL_MS, next.getTime() - lookahead - clock.now().getTime()));
  }

  /** Starts a round; resolves with how many rows it claimed (-1: the claim failed). */
  function startRound(): Promise<number> {
    let claimed!: (n: number) => void;
    const claimedOnce = new Promise<number>((resolve) => (claimed = resolve));
    const round: Promise<void> = handlers
      .round({ onClaimed: (n) => claimed(n) })
      .then(
        (summary) => {
          if (summary.failed > 0) failures += 1;
          else if (summary.claimed > 0) failures = 0;
        },
        (err) => {
          failures += 1;
          logger.error('scheduler round failed', { error: err });
          claimed(-1);
        },
      )
      .finally(() => rounds.delete(round));
    rounds.add(round);
    return claimedOnce;
  }

  async function loop(): Promise<void> {
    let backlogAt = Number.NEGATIVE_INFINITY;
    while (!stopped) {
      if (rounds.size >= MAX_ROUNDS_IN_FLIGHT) {
        await Promise.race(rounds);
        continue;
      }
      let delay = config.SCHEDULER_POLL_MS;
      try {
        const claimed = await startRound();
        if (claimed >= 0 && failures === 0) {
          delay = claimed === config.SCHEDULER_BATCH_SIZE ? 0 : await untilNextClaim();
        }
      } catch (err) {
        failures += 1;
        logger.error('scheduler tick failed', { error: err });
      }
      if (failures > 0) delay = Math.min(MAX_BACKOFF_MS, config.SCHEDULER_POLL_MS * 2 ** Math.min(failures, 10));
      // Wall time on purpose: the gauge is refreshed for Prometheus, whatever the injected clock says.
      if (performance.now() - backlogAt >= BACKLOG_REFRESH_MS) {
        backlogAt = performance.now();
        await handlers.measureBacklog().catch((err) => logger.warn('backlog measurement failed', { error: err }));
      }
      if (delay > 0 && !stopped) await sleep(delay);
    }
    await Promise.allSettled([...rounds]);
  }

  const running = loop();
  return {
    async stop(): Promise<void> {
      stopped = true;
      wake();
      await running;
    },
  };
}
