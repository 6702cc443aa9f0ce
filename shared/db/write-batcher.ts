import type { Database } from './connect';
import type { Logger } from '../log/logger';
import type { Executor } from './executor';

/** Writes a batch of items in the caller's transaction (multi-row statements, one per table). */
export type BatchWrite<I> = (tx: Executor, items: I[]) => Promise<void>;

export interface WriteBatcherOptions<I> {
  /** Most items one transaction takes; the rest wait for the next. */
  maxBatch?: number;
  /** After a batch committed, with its items (e.g. to publish the events they recorded). */
  committed?: (items: I[]) => void;
  /** Where a failing `committed` hook is reported (it cannot undo the commit). */
  logger?: Logger;
  /**
   * How long the first item of an idle batcher waits for company before its batch is written.
   * None for writes a caller waits on (a lone create is written at once); some for background
   * writes (the relay's marks), where fewer, larger transactions matter more than a few ms.
   */
  lingerMs?: number;
}

export interface WriteBatcher<I> {
  /** Resolves once the item's transaction has committed; rejects with that item's own failure. */
  write(item: I): Promise<void>;
  /** Resolves when nothing is queued or being written. */
  idle(): Promise<void>;
}

interface Pending<I> {
  item: I;
  resolve: () => void;
  reject: (err: unknown) => void;
}

const DEFAULT_MAX_BATCH = 100;

/**
 * Group commit for one kind of write: items that arrive while a transaction is being written
 * wait for it, then go together in the next one, so under load a transaction and its statements
 * serve many requests (a create's four round trips and its commit were most of the database's
 * work per request), and a lone item is written at once, as before.
 *
 * Each item keeps its own outcome: the caller hears back only after the transaction holding its
 * item committed, and when a batch fails, each of its items is written again in a transaction of
 * its own, so one bad item fails alone and never takes its neighbours (another tenant's) down.
 * At most one batch is in flight: the writes of one kind take one pooled connection at a time.
 */
export function createWriteBatcher<I>(db: Database, write: BatchWrite<I>, options: WriteBatcherOptions<I> = {}): WriteBatcher<I> {
  const maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
  let queue: Array<Pending<I>> = [];
  let running: Promise<void> | undefined;

  const settle = (batch: Array<Pending<I>>) => {
    // Committed is committed: the callers hear so first, whatever the hook then does.
    for (const p of batch) p.resolve();
    try {
      options.committed?.(batch.map((p) => p.item));
    } catch (err) {
      options.logger?.error('write batcher: the commit hook failed', { error: err });
    }
  };

  const writeAlone = async (p: Pending<I>) => {
    try {
      await db.transaction((tx) => write(tx, [p.item]));
    } catch (err) {
      p.reject(err);
      return;
    }
    settle([p]);
  };

  const drain = async () => {
    while (queue.length > 0) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      if (batch.length === 1) {
        await writeAlone(batch[0]!);
        continue;
      }
      try {
        await db.transaction((tx) => write(tx, batch.map((p) => p.item)));
      } catch {
        // Which item failed is not known: each is tried alone and gets its own answer.
        for (const p of batch) await writeAlone(p);
        continue;
      }
      settle(batch);
    }
  };

  const linger = options.lingerMs ?? 0;
  const start = () => {
    running ??= (linger > 0 ? new Promise((resolve) => setTimeout(resolve, linger)).then(drain) : drain()).finally(() => {
      running = undefined;
      if (queue.length > 0) start();
    });
  };

  return {
    write: (item) =>
      new Promise<void>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        start();
      }),
    idle: async () => {
      while (running) await running;
    },
  };
}
