/**
 * A background loop's wait between rounds that its stop can cut short: `pause(ms)` resolves after
 * `ms`, or at once when `wake()` is called (a stopping service does not sit out a long backoff or
 * poll interval). One wait at a time, which is how the loops use it.
 */
export function wakeablePause(): { pause(ms: number): Promise<void>; wake(): void } {
  let wake: () => void = () => {};
  return {
    pause: (ms) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      }),
    wake: () => wake(),
  };
}
