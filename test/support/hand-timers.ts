import type { Timers } from '@shared/time/timers';

/** Timers a test fires itself (shared/time/timers.ts): nothing waits on time. */
export class HandTimers implements Timers {
  private readonly pending = new Map<number, { fire: () => void; ms: number }>();
  private next = 0;

  set(fire: () => void, ms: number): unknown {
    const id = ++this.next;
    this.pending.set(id, { fire, ms });
    return id;
  }

  clear(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  /** Fires every timer set so far (they all share one wait). */
  fireAll(): void {
    for (const [id, timer] of [...this.pending]) {
      this.pending.delete(id);
      timer.fire();
    }
  }

  /** How many are set and not yet fired or cleared. */
  get count(): number {
    return this.pending.size;
  }

  /** The delays of those, in the order they were set. */
  get delays(): number[] {
    return [...this.pending.values()].map((t) => t.ms);
  }
}
