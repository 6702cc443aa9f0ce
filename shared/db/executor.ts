import type { Database } from './connect';

/** The database or an open transaction: every query function takes one, so a handler chooses. */
export type Executor = Database | Parameters<Parameters<Database['transaction']>[0]>[0];

/**
 * How a single-row read is made. `lock: true` reads it `FOR UPDATE` (inside a transaction), so
 * the decision taken on it holds until the transaction ends.
 */
export interface ReadOptions {
  lock?: boolean;
}
