/**
 * The one bounded wait of the suite: it waits for a condition, it never decides one. A test
 * asserts on what `probe` returned, so how long the wait took never changes an outcome.
 */
export interface EventuallyOptions {
  /** Give up (and fail, naming what was awaited) after this long. */
  timeoutMs?: number;
  /** Pause between two probes. */
  intervalMs?: number;
}

/** Calls `probe` until it returns a value other than undefined, and returns that value. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  { timeoutMs = 20_000, intervalMs = 25 }: EventuallyOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await Bun.sleep(intervalMs);
  }
}

/** Waits until `check` holds: `eventually` for a condition that has no value to hand back. */
export async function until(what: string, check: () => boolean | Promise<boolean>, options: EventuallyOptions = {}): Promise<void> {
  await eventually(what, async () => ((await check()) ? true : undefined), options);
}
