import type { Logger } from '../log/logger';
import { createBatcher, inLaneTurns, type BatcherOptions, type Settled } from './batcher';
import type { Database } from './connect';
import type { Executor } from './executor';

/** Writes a batch of items in the caller's transaction (multi-row statements, one per table). */
export type BatchWrite<I> = (tx: Executor, items: I[]) => Promise<void>;

export interface WriteBatcherOptions<I> extends Pick<BatcherOptions<I>, 'laneOf' | 'maxQueuedPerLane' | 'refuse'> {
  /** Most items one transaction takes; the rest wait for the next. */
  maxBatch?: number;
  /** After a batch committed, with its items (e.g. to publish the events they recorded). */
  committed?: (items: I[]) => void;
  /** Where a failing `committed` hook is reported (it cannot undo the commit). */
  logger?: Logger;
  /** See BatcherOptions.lingerMs: none for writes a caller waits on, some for background writes. */
  lingerMs?: number;
}

export interface WriteBatcher<I> {
  /** Resolves once the item's transaction has committed; rejects with that item's own failure. */
  write(item: I): Promise<void>;
  /** Resolves when nothing is queued or being written. */
  idle(): Promise<void>;
}

/**
 * Group commit for one kind of write (shared/db/batcher.ts, one batch in flight): items that
 * arrive while a transaction is being written go together in the next one, so under load a
 * transaction and its statements serve many requests (a create's four round trips and its
 * commit were most of the database's work per request), and a lone item is written at once.
 *
 * Each item keeps its own outcome: the caller hears back only after the transaction holding its
 * item committed, and when a batch fails, each of its items is written again in a transaction of
 * its own, so one bad item fails alone and never takes its neighbours (another tenant's) down.
 */
export function createWriteBatcher<I>(db: Database, write: BatchWrite<I>, options: WriteBatcherOptions<I> = {}): WriteBatcher<I> {
  const committed = (items: I[]) => {
    try {
      options.committed?.(items);
    } catch (err) {
      options.logger?.error('write batcher: the commit hook failed', { error: err });
    }
  };
  const writeAlone = async (item: I): Promise<Settled<void>> => {
    try {
      await db.transaction((tx) => write(tx, [item]));
    } catch (error) {
      return { ok: false, error };
    }
    committed([item]);
    return { ok: true, value: undefined };
  };
  const batcher = createBatcher<I, void>(
    async (items) => {
      if (items.length === 1) return [await writeAlone(items[0]!)];
      try {
        await db.transaction((tx) => write(tx, items));
      } catch {
        // Which item failed is not known: each is tried alone and gets its own answer, the lanes
        // taken in turn, so a tenant with one create in a batch full of another's waits for a
        // transaction or two, not for all of them.
        const outcomes: Settled<void>[] = new Array(items.length);
        for (const at of inLaneTurns(items, options.laneOf)) outcomes[at] = await writeAlone(items[at]!);
        return outcomes;
      }
      committed(items);
      return items.map(() => ({ ok: true, value: undefined }));
    },
    {
      maxBatch: options.maxBatch,
      lingerMs: options.lingerMs,
      concurrency: 1,
      laneOf: options.laneOf,
      maxQueuedPerLane: options.maxQueuedPerLane,
      refuse: options.refuse,
    },
  );
  return { write: (item) => batcher.call(item), idle: () => batcher.idle() };
}
