import { describe, expect, test } from 'bun:test';
import type { Database } from '@shared/db/connect';
import { createWriteBatcher, type WriteBatcher } from '@shared/db/write-batcher';

/**
 * The batcher's grouping and failure rules, against a stand-in for the database's transaction
 * call (the real multi-row writes run in the deployments integration tests).
 */
function recordingDb(failWhen: (items: number[]) => boolean = () => false) {
  const transactions: number[][] = [];
  let release: (() => void) | undefined;
  let gate: Promise<void> | undefined;
  const db = {
    async transaction(fn: (tx: unknown) => Promise<void>) {
      await fn({});
    },
  } as unknown as Database;
  const write = async (_tx: unknown, items: number[]) => {
    if (gate) await gate;
    if (failWhen(items)) throw new Error(`refused ${items.join(',')}`);
    transactions.push(items);
  };
  return {
    db,
    write,
    transactions,
    hold: () => (gate = new Promise((r) => (release = r))),
    open: () => {
      gate = undefined;
      release?.();
    },
  };
}

/** The end of the current event-loop turn, where an idle batcher starts its batch. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Writes `first`, lets it start its batch alone (held open), then writes `rest`, which queue
 * behind it for the next batch, and releases the transaction.
 */
async function loneThenQueued(rec: ReturnType<typeof recordingDb>, batcher: WriteBatcher<number>, first: number, rest: number[]) {
  rec.hold();
  const lone = batcher.write(first);
  await nextTurn();
  const queued = rest.map((i) => batcher.write(i));
  rec.open();
  return { lone, queued };
}

describe('write batcher', () => {
  test('a lone item is written at the end of its turn; items arriving meanwhile share the next transaction', async () => {
    const rec = recordingDb();
    const committed: number[][] = [];
    const batcher = createWriteBatcher(rec.db, rec.write, { committed: (items) => committed.push(items) });
    const { lone, queued } = await loneThenQueued(rec, batcher, 1, [2, 3, 4]);
    await Promise.all([lone, ...queued]);
    expect(rec.transactions).toEqual([[1], [2, 3, 4]]);
    expect(committed).toEqual([[1], [2, 3, 4]]);
  });

  test('with a linger, the first item waits for company instead of going alone', async () => {
    const rec = recordingDb();
    const batcher = createWriteBatcher(rec.db, rec.write, { lingerMs: 5 });
    await Promise.all([batcher.write(1), batcher.write(2)]);
    expect(rec.transactions).toEqual([[1, 2]]);
  });

  test('items of one turn go together; a batch takes at most maxBatch items', async () => {
    const rec = recordingDb();
    const batcher = createWriteBatcher(rec.db, rec.write, { maxBatch: 2 });
    rec.hold();
    const all = [1, 2, 3, 4, 5].map((i) => batcher.write(i));
    rec.open();
    await Promise.all(all);
    expect(rec.transactions).toEqual([[1, 2], [3, 4], [5]]);
  });

  test('when a batch fails each item is written alone, and only the bad one fails', async () => {
    const rec = recordingDb((items) => items.includes(3));
    const committed: number[][] = [];
    const batcher = createWriteBatcher(rec.db, rec.write, { committed: (items) => committed.push(items) });
    const { lone, queued } = await loneThenQueued(rec, batcher, 1, [2, 3, 4]);
    await lone;
    const outcomes = await Promise.allSettled(queued);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason.message).toBe('refused 3');
    expect(rec.transactions).toEqual([[1], [2], [4]]);
    expect(committed).toEqual([[1], [2], [4]]);
  });

  test('a throwing commit hook does not keep callers from hearing their write committed', async () => {
    const rec = recordingDb();
    const batcher = createWriteBatcher(rec.db, rec.write, {
      committed: () => {
        throw new Error('hook');
      },
    });
    await expect(batcher.write(1)).resolves.toBeUndefined();
    await batcher.idle();
  });

  test('a failed batch is written again item by item, the lanes taken in turn', async () => {
    const rec = recordingDb((items) => items.length > 1);
    const batcher = createWriteBatcher(rec.db, rec.write, { laneOf: (item) => (item < 10 ? 'a' : 'b') });
    // Tenant a's backlog and tenant b's one item share the next batch, which fails.
    const { lone, queued } = await loneThenQueued(rec, batcher, 0, [1, 2, 3, 4, 10]);
    await Promise.all([lone, ...queued]);
    // b's item is written second, not after all of a's.
    expect(rec.transactions).toEqual([[0], [1], [10], [2], [3], [4]]);
  });
});
