/**
 * Timers as the code that waits takes them, injected like the Clock: tests pass a hand-driven
 * one and fire it themselves instead of sleeping.
 */
export interface Timers {
  set(fire: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const systemTimers: Timers = {
  set: (fire, ms) => setTimeout(fire, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
