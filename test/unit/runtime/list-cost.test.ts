import { describe, expect, test } from 'bun:test';
import { budgetReached, centsOf, listCostUnits, LIST_COST_UNITS_PER_CENT } from '@shared/usage/list-cost';

const OPUS = { input_per_million_tokens: '500', output_per_million_tokens: '2500' };
const tokens = (over: Partial<Parameters<typeof listCostUnits>[0]> = {}) => ({
  input_tokens: 0,
  output_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation_5m_input_tokens: 0,
  cache_creation_1h_input_tokens: 0,
  ...over,
});

describe('list cost, in exact integer units of 1e-8 cent', () => {
  test('input and output at their prices', () => {
    // 1,000 tokens at 500 cents a million: 0.5 cent; 1,000 at 2,500: 2.5 cents.
    expect(listCostUnits(tokens({ input_tokens: 1000 }), OPUS)).toBe(50_000_000n);
    expect(listCostUnits(tokens({ output_tokens: 1000 }), OPUS)).toBe(250_000_000n);
    expect(listCostUnits(tokens({ input_tokens: 1000, output_tokens: 1000 }), OPUS)).toBe(3n * LIST_COST_UNITS_PER_CENT);
  });

  test('cache reads a tenth, 5-minute writes 1.25 times, 1-hour writes twice the input price; one token exactly', () => {
    expect(listCostUnits(tokens({ input_tokens: 1 }), OPUS)).toBe(50_000n);
    expect(listCostUnits(tokens({ cache_read_input_tokens: 1 }), OPUS)).toBe(5_000n);
    expect(listCostUnits(tokens({ cache_creation_5m_input_tokens: 1 }), OPUS)).toBe(62_500n);
    expect(listCostUnits(tokens({ cache_creation_1h_input_tokens: 1 }), OPUS)).toBe(100_000n);
    // A price of 1 cent a million: a cache read of one token is 10 units, never rounded away.
    expect(listCostUnits(tokens({ cache_read_input_tokens: 1 }), { input_per_million_tokens: '1', output_per_million_tokens: '1' })).toBe(10n);
  });

  test('sums stay exact far past a float\'s integer range', () => {
    const huge = listCostUnits(tokens({ output_tokens: 2_000_000_000 }), { input_per_million_tokens: '0', output_per_million_tokens: '999999999' });
    expect(huge).toBe(2_000_000_000n * 999_999_999n * 100n);
    expect(huge > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
  });

  test('shown in whole cents rounded up; the budget compares the exact units', () => {
    expect(centsOf(0n)).toBe('0');
    expect(centsOf(1n)).toBe('1');
    expect(centsOf(LIST_COST_UNITS_PER_CENT)).toBe('1');
    expect(centsOf(LIST_COST_UNITS_PER_CENT + 1n)).toBe('2');
    expect(budgetReached(3n * LIST_COST_UNITS_PER_CENT - 1n, '3')).toBe(false);
    expect(budgetReached(3n * LIST_COST_UNITS_PER_CENT, '3')).toBe(true);
    expect(budgetReached(0n, '0')).toBe(true);
  });
});
