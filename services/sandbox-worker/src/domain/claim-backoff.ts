const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;

/**
 * How long the claim loop waits after `failures` claims or sessions failed in a row (1 or more):
 * doubling from half a second up to 30 s, so a worker with no runtime to answer, or one that
 * cannot start sessions, does not take the whole queue item after item.
 */
export const claimBackoffMs = (failures: number): number => Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.min(failures - 1, 10));
