import { earliestFireAt } from './db/earliest-fire-at';
import type { RoundSummary } from './handlers/fire-due-schedules';
import type { SchedulerDeps } from './service';

const MAX_BACKOFF_MS = 30_000;
const BACKLOG_REFRESH_MS = 5_000;
const MIN_SLEEP_MS = 10;

export interface DueTimer {
  /** Finishes the round in flight (its claims settle normally), then returns. */
  stop(): Promise<void>;
}

/**
 * What triggers the scheduler's rounds, as a bus server triggers another service's handlers:
 * runs `round` again at once after a full batch, otherwise when the earliest row is due (never
 * later than the poll interval, new rows may come sooner); backs off exponentially while rounds
 * fail, so a struggling deployments service or database is not hammered; refreshes the backlog
 * gauge every few seconds.
 */
export function startDueTimer(
  deps: SchedulerDeps,
  handlers: { round: () => Promise<RoundSummary>; measureBacklog: () => Promise<number> },
): DueTimer {
  const { db, clock, config } = deps;
  const logger = deps.logger.child({ worker: config.SCHEDULER_WORKER_ID });
  let stopped = false;
  let wake: (() => void) | undefined;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function untilNextDue(): Promise<number> {
    const next = await earliestFireAt(db);
    if (!next) return config.SCHEDULER_POLL_MS;
    // At least a few ms: a row still unclaimed-looking is being claimed by another worker right now.
    return Math.max(MIN_SLEEP_MS, Math.min(config.SCHEDULER_POLL_MS, next.getTime() - clock.now().getTime()));
  }

  async function loop(): Promise<void> {
    let failures = 0;
    let backlogAt = Number.NEGATIVE_INFINITY;
    while (!stopped) {
      let delay = config.SCHEDULER_POLL_MS;
      try {
        const summary = await handlers.round();
        if (summary.failed > 0) failures += 1;
        else failures = 0;
        if (failures === 0 && summary.claimed === config.SCHEDULER_BATCH_SIZE) delay = 0;
        else if (failures === 0) delay = await untilNextDue();
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
  }

  const running = loop();
  return {
    async stop(): Promise<void> {
      stopped = true;
      wake?.();
      await running;
    },
  };
}
