import { hasErrno } from '../errors/cause-chain';

/**
 * InnoDB answers some concurrent transactions with a deadlock or a lock-wait timeout even when
 * every statement is correct (SKIP LOCKED claims, index gap locks). Both are rolled back whole
 * and are safe to run again; anything else is a real error and is thrown at once.
 */
const TRANSIENT_ERRNOS = new Set([
  1213, // ER_LOCK_DEADLOCK
  1205, // ER_LOCK_WAIT_TIMEOUT
]);

export const isTransientDatabaseError = (err: unknown): boolean => hasErrno(err, TRANSIENT_ERRNOS);

/** Runs a whole transaction again when it failed transiently, with a short jittered backoff. */
export async function retryTransient<T>(transaction: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (err) {
      if (attempt >= attempts || !isTransientDatabaseError(err)) throw err;
      await Bun.sleep(Math.random() * 10 * attempt);
    }
  }
}
