import type { ListPrice } from '../schema/model';

/** A model's list price is the schema's (shared/schema/model.ts); the cost callers name it from here too. */
export type { ListPrice };

/**
 * A session's spend at list price, in exact integers. Prices are cents per million tokens
 * (integer strings, shared/schema/model.ts); cache reads cost a tenth of the input price and
 * cache writes 1.25 (5-minute) or 2 (1-hour) times it, so one token can cost a fraction of a
 * cent's millionth. The unit is therefore 1e-8 cent: every rate times every token count is a
 * whole number of them, and a sum of them is exact (BigInt, no float ever touches money).
 */
export const LIST_COST_UNITS_PER_CENT = 100_000_000n;
/**
 * Units per token and per cent-per-million of price, by kind of token: 1e8 / 1e6 = 100 at the
 * input or output price; a cache read 10 (a tenth), a 5-minute cache write 125 (1.25 times), a
 * 1-hour one 200 (twice).
 */
const RATE = { base: 100n, cacheRead: 10n, cacheWrite5m: 125n, cacheWrite1h: 200n } as const;

/** Token counts of one model response, as the Messages API reports them. */
export interface TokenUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_5m_input_tokens: number;
  cache_creation_1h_input_tokens: number;
}

/** The list cost of `usage` at `price`, in units of 1e-8 cent. */
export function listCostUnits(usage: TokenUsage, price: Pick<ListPrice, 'input_per_million_tokens' | 'output_per_million_tokens'>): bigint {
  const input = BigInt(price.input_per_million_tokens);
  const output = BigInt(price.output_per_million_tokens);
  const n = (tokens: number) => BigInt(tokens);
  return (
    n(usage.input_tokens) * input * RATE.base +
    n(usage.output_tokens) * output * RATE.base +
    n(usage.cache_read_input_tokens) * input * RATE.cacheRead +
    n(usage.cache_creation_5m_input_tokens) * input * RATE.cacheWrite5m +
    n(usage.cache_creation_1h_input_tokens) * input * RATE.cacheWrite1h
  );
}

/**
 * Units as the API shows an amount: whole cents, rounded up, so a shown cost never understates
 * what was spent (the budget compares the exact units, not this).
 */
export function centsOf(units: bigint): string {
  return ((units + LIST_COST_UNITS_PER_CENT - 1n) / LIST_COST_UNITS_PER_CENT).toString();
}

/** Whether a spend of `units` has reached a cap of `maxCents` (the budget's `max_list_cost.amount`). */
export const budgetReached = (units: bigint, maxCents: string): boolean => units >= BigInt(maxCents) * LIST_COST_UNITS_PER_CENT;
