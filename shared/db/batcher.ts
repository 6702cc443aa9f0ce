/** One call's result in a batch: its value, or what it throws. */
export type Settled<O> = { ok: true; value: O } | { ok: false; error: unknown };

export interface BatcherOptions<I> {
  /** Most items one batch takes; the rest wait for the next. */
  maxBatch?: number;
  /** Batches in progress at once (one commits while the next is built). */
  concurrency?: number;
  /**
   * How long the first item of an idle batcher waits for company before its batch starts. None
   * for work a caller waits on (a lone item goes at once); some for background work (the relay's
   * marks), where fewer, larger batches matter more than a few ms.
   */
  lingerMs?: number;
  /** Items with the same key never share a batch: each sees what the previous one did. */
  keyOf?: (item: I) => string;
}

export interface Batcher<I, O> {
  /** Resolves with the item's own result once its batch ran; rejects with the item's own failure. */
  call(item: I): Promise<O>;
  /** Resolves when nothing is queued or in progress. */
  idle(): Promise<void>;
}

const DEFAULT_MAX_BATCH = 100;

/**
 * Groups the concurrent calls of one process into batches: a call made while `concurrency`
 * batches are in progress waits, and the calls waiting form the next batch. Alone, a call is a
 * batch of one at once; under load one statement or one transaction serves dozens of calls,
 * which hold one pooled connection instead of one each. `run` answers every item of a batch, in
 * order; if it throws, every item of the batch fails with that error.
 */
export function createBatcher<I, O>(run: (items: I[]) => Promise<Settled<O>[]>, options: BatcherOptions<I> = {}): Batcher<I, O> {
  const maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
  const concurrency = options.concurrency ?? 1;
  const linger = options.lingerMs ?? 0;
  let queue: Array<{ item: I; settle: (s: Settled<O>) => void }> = [];
  let active = 0;
  let lingering = false;
  const idleWaiters: Array<() => void> = [];

  /** The oldest waiting calls, at most one per key; the rest keep waiting in order. */
  const take = () => {
    const keys = new Set<string>();
    const batch: typeof queue = [];
    const rest: typeof queue = [];
    for (const queued of queue) {
      const key = options.keyOf?.(queued.item);
      if (batch.length < maxBatch && (key === undefined || !keys.has(key))) {
        if (key !== undefined) keys.add(key);
        batch.push(queued);
      } else rest.push(queued);
    }
    queue = rest;
    return batch;
  };

  const pump = (): void => {
    while (active < concurrency && queue.length > 0 && !lingering) {
      const batch = take();
      active += 1;
      run(batch.map((b) => b.item))
        .then(
          (results) => batch.forEach((b, i) => b.settle(results[i]!)),
          (error: unknown) => batch.forEach((b) => b.settle({ ok: false, error })),
        )
        .finally(() => {
          active -= 1;
          pump();
          if (active === 0 && queue.length === 0) idleWaiters.splice(0).forEach((resolve) => resolve());
        });
    }
  };

  const enqueue = (item: I, settle: (s: Settled<O>) => void) => {
    const wasIdle = active === 0 && queue.length === 0;
    queue.push({ item, settle });
    if (wasIdle && linger > 0) {
      lingering = true;
      setTimeout(() => {
        lingering = false;
        pump();
      }, linger);
      return;
    }
    pump();
  };

  return {
    async call(item) {
      const settled = await new Promise<Settled<O>>((settle) => enqueue(item, settle));
      if (!settled.ok) throw settled.error;
      return settled.value;
    },
    idle: () => (active === 0 && queue.length === 0 && !lingering ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve))),
  };
}
