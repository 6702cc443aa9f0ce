import type { Logger } from '../log/logger';

/**
 * SIGTERM/SIGINT: stop taking work, finish what is in flight (bounded by the grace period),
 * drain, exit. A second signal exits at once.
 */
export function stopOnSignal(stop: () => Promise<void>, graceMs: number, logger: Logger): void {
  let stopping = false;
  const onSignal = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info('shutting down', { signal });
    const deadline = setTimeout(() => {
      logger.warn('grace period over; exiting with work in flight');
      process.exit(1);
    }, graceMs);
    stop()
      .then(() => {
        clearTimeout(deadline);
        process.exit(0);
      })
      .catch((err) => {
        logger.error('shutdown failed', { error: err });
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
}

/** Start-up failures print one readable line (never a stack of internals) and exit non-zero. */
export async function runService(start: () => Promise<unknown>, name: string): Promise<void> {
  try {
    await start();
  } catch (err) {
    process.stderr.write(`${name}: failed to start: ${(err as Error).message}\n`);
    process.exit(1);
  }
}
