/** One call's result in a batch: its value, or what it throws. */
export type Settled<O> = { ok: true; value: O } | { ok: false; error: unknown };

/** `work`'s outcome as a batch item's: its value, or what it threw. */
export async function settle<O>(work: () => Promise<O>): Promise<Settled<O>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    return { ok: false, error };
  }
}

export interface BatcherOptions<I> {
  /** Most items one batch takes; the rest wait for the next. */
  maxBatch?: number;
  /** Batches in progress at once (one commits while the next is built). */
  concurrency?: number;
  /**
   * How long the first item of an idle batcher waits for company before its batch starts. None
   * for work a caller waits on (a lone item goes at the end of the event-loop turn); some for
   * background work (the relay's deletes of published rows), where fewer, larger batches matter
   * more than a few ms.
   */
  lingerMs?: number;
  /** Items with the same key never share a batch: each sees what the previous one did. */
  keyOf?: (item: I) => string;
  /**
   * Whose item this is (a tenant). A batch takes the lanes' oldest items in turn, so a lane
   * with thousands waiting delays another's item by one batch at most, never by its backlog.
   */
  laneOf?: (item: I) => string;
  /** Most items one lane may have waiting; one more is refused at once with `refuse()`. */
  maxQueuedPerLane?: number;
  refuse?: () => Error;
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
 * batch of one at the end of its event-loop turn; under load one statement or one transaction
 * serves dozens of calls, which hold one pooled connection instead of one each. `run` answers every item of a batch, in
 * order; if it throws, every item of the batch fails with that error.
 */
export function createBatcher<I, O>(run: (items: I[]) => Promise<Settled<O>[]>, options: BatcherOptions<I> = {}): Batcher<I, O> {
  const maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
  const concurrency = options.concurrency ?? 1;
  const linger = options.lingerMs ?? 0;
  let queue: Array<{ item: I; settle: (s: Settled<O>) => void }> = [];
  /** Items waiting per lane (with laneOf), for maxQueuedPerLane. */
  const waiting = new Map<string, number>();
  let active = 0;
  let lingering = false;
  const idleWaiters: Array<() => void> = [];

  /**
   * The oldest waiting calls, at most one per key, the lanes taken in turn (inLaneTurns); the
   * rest keep waiting in order. A batch keeps arrival order.
   */
  const take = () => {
    const keys = new Set<string>();
    const chosen = new Set<number>();
    for (const at of inLaneTurns(queue.map((queued) => queued.item), options.laneOf)) {
      if (chosen.size >= maxBatch) break;
      const key = options.keyOf?.(queue[at]!.item);
      if (key !== undefined) {
        if (keys.has(key)) continue;
        keys.add(key);
      }
      chosen.add(at);
    }
    const batch = queue.filter((_, at) => chosen.has(at));
    queue = queue.filter((_, at) => !chosen.has(at));
    for (const queued of batch) leaveLane(queued.item);
    return batch;
  };

  const leaveLane = (item: I) => {
    if (!options.laneOf) return;
    const lane = options.laneOf(item);
    const count = (waiting.get(lane) ?? 1) - 1;
    if (count === 0) waiting.delete(lane);
    else waiting.set(lane, count);
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
    if (options.laneOf) {
      const lane = options.laneOf(item);
      const count = waiting.get(lane) ?? 0;
      if (options.maxQueuedPerLane !== undefined && count >= options.maxQueuedPerLane) {
        settle({ ok: false, error: options.refuse?.() ?? new Error('too many items waiting in this lane') });
        return;
      }
      waiting.set(lane, count + 1);
    }
    const wasIdle = active === 0 && queue.length === 0;
    queue.push({ item, settle });
    if (wasIdle) {
      // The first item of an idle batcher waits for the end of this event-loop turn (or the
      // linger): the messages one socket read brought in reach the queue within the turn, so a
      // burst goes as one batch instead of a batch of one and then the rest, which waited for it.
      lingering = true;
      const start = () => {
        lingering = false;
        pump();
      };
      if (linger > 0) setTimeout(start, linger);
      else setImmediate(start);
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

/**
 * The items' positions, each lane's oldest first and the lanes in turn (lane a's first, lane b's
 * first, ..., then each lane's second...); in order when there are no lanes. What keeps a lane
 * with a backlog from going before another lane's one item, in a batch or in a batch's retries.
 */
export function inLaneTurns<I>(items: readonly I[], laneOf: ((item: I) => string) | undefined): number[] {
  if (!laneOf) return items.map((_, at) => at);
  const lanes = new Map<string, number[]>();
  items.forEach((item, at) => {
    const lane = laneOf(item);
    const list = lanes.get(lane);
    if (list) list.push(at);
    else lanes.set(lane, [at]);
  });
  const order: number[] = [];
  const lists = [...lanes.values()];
  for (let round = 0; order.length < items.length; round++) {
    for (const list of lists) if (round < list.length) order.push(list[round]!);
  }
  return order;
}
