import { describe, expect, test } from 'bun:test';
import { until } from '../support/eventually';
import { createBatcher, type BatcherOptions, type Settled } from '@shared/db/batcher';

/** The end of the current event-loop turn, where an idle batcher starts its batch. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A batcher over strings that records its batches; the first batch waits until `release()`. */
function gatedBatcher(options: BatcherOptions<string>, answer: (item: string) => Settled<string> = (value) => ({ ok: true, value })) {
  const batches: string[][] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const batcher = createBatcher(async (items: string[]) => {
    batches.push(items);
    if (batches.length === 1) await gate;
    return items.map(answer);
  }, options);
  return { batcher, batches, release };
}

describe('batcher', () => {
  test('items of one key never share a batch; each call gets its own result or failure', async () => {
    const { batcher, batches, release } = gatedBatcher({ keyOf: (item) => item[0]! }, (item) =>
      item === 'bad' ? { ok: false, error: new Error(item) } : { ok: true, value: item.toUpperCase() },
    );
    const first = batcher.call('a1');
    await nextTurn();
    const rest = ['a2', 'b1', 'a3', 'bad'].map((i) => batcher.call(i));
    release();
    expect(await first).toBe('A1');
    const outcomes = await Promise.allSettled(rest);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).toEqual(['A2', 'B1', 'A3', 'bad']);
    // Keys are first letters: a2 and a3 share "a", b1 and bad share "b"; each waits for the next batch.
    expect(batches).toEqual([['a1'], ['a2', 'b1'], ['a3', 'bad']]);
    await batcher.idle();
  });

  test('up to `concurrency` batches run at once', async () => {
    let running = 0;
    let most = 0;
    // Batches are held open until two run at once, so overlap never depends on how long one takes.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const batcher = createBatcher(
      async (items: number[]) => {
        running += 1;
        most = Math.max(most, running);
        await held;
        running -= 1;
        return items.map((value) => ({ ok: true as const, value }));
      },
      { concurrency: 2, maxBatch: 1 },
    );
    const calls = Promise.all([1, 2, 3, 4].map((i) => batcher.call(i)));
    await until('two batches to run at once', () => running >= 2, { timeoutMs: 5_000, intervalMs: 1 });
    release();
    expect(await calls).toEqual([1, 2, 3, 4]);
    expect(most).toBe(2);
  });

  test('lanes take turns in a batch: a lane with a backlog delays another lane\'s item by one batch at most', async () => {
    const { batcher, batches, release } = gatedBatcher({ maxBatch: 4, laneOf: (item) => item[0]! });
    const first = batcher.call('a0');
    await nextTurn();
    const rest = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'b1', 'c1', 'b2'].map((i) => batcher.call(i));
    release();
    await Promise.all([first, ...rest]);
    // FIFO would have put b1 and c1 behind a1..a6 (batch 3); in turns they make the next batch
    // (a batch keeps arrival order).
    expect(batches).toEqual([['a0'], ['a1', 'a2', 'b1', 'c1'], ['a3', 'a4', 'a5', 'b2'], ['a6']]);
  });

  test('a lane past its bound is refused at once; other lanes are not', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const batcher = createBatcher(
      async (items: string[]) => {
        await gate;
        return items.map((value) => ({ ok: true as const, value }));
      },
      { laneOf: (item) => item[0]!, maxQueuedPerLane: 2, refuse: () => new Error('429') },
    );
    const first = batcher.call('a0');
    await nextTurn(); // a0 in progress, no longer waiting
    const waiting = [batcher.call('a1'), batcher.call('a2')];
    await expect(batcher.call('a3')).rejects.toThrow('429');
    const other = batcher.call('b1');
    release();
    expect(await Promise.all([first, ...waiting, other])).toEqual(['a0', 'a1', 'a2', 'b1']);
    // Once the lane's items left the queue, it takes more again.
    expect(await batcher.call('a4')).toBe('a4');
  });
});
