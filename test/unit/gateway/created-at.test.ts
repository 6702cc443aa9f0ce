import { describe, expect, test } from 'bun:test';
import { createdAtBound, createdAtRange } from '../../../services/gateway/src/domain/created-at';

/** Throws exactly this message. */
const refuses = (fn: () => unknown, message: string) => expect(fn).toThrow(new Error(message));

describe('createdAtBound: rounded inward to the stored millisecond', () => {
  test('absent stays absent', () => {
    expect(createdAtBound('gte', undefined)).toBeUndefined();
  });
  test('whole milliseconds and offsets become UTC', () => {
    expect(createdAtBound('gte', '2026-01-02T03:04:05.123Z')).toBe('2026-01-02T03:04:05.123Z');
    expect(createdAtBound('lte', '2026-01-02T05:04:05+02:00')).toBe('2026-01-02T03:04:05.000Z');
  });
  test('a sub-millisecond gte or lt rounds up, gt or lte rounds down', () => {
    const value = '2026-01-02T03:04:05.123400Z';
    expect(createdAtBound('gte', value)).toBe('2026-01-02T03:04:05.124Z');
    expect(createdAtBound('lt', value)).toBe('2026-01-02T03:04:05.124Z');
    expect(createdAtBound('gt', value)).toBe('2026-01-02T03:04:05.123Z');
    expect(createdAtBound('lte', value)).toBe('2026-01-02T03:04:05.123Z');
  });
  test('trailing zeros are not finer than a millisecond', () => {
    expect(createdAtBound('gte', '2026-01-02T03:04:05.123000Z')).toBe('2026-01-02T03:04:05.123Z');
  });
  test('anything but RFC 3339 is refused, naming the bound', () => {
    refuses(() => createdAtBound('lt', 'yesterday'), 'created_at[lt]: must be an RFC 3339 timestamp');
  });
});

describe('createdAtRange: one declaration for the query parameters and the filters', () => {
  const range = createdAtRange('gt', 'lte');
  test('declares the bracketed parameters as optional text', () => {
    expect(Object.keys(range.query)).toEqual(['created_at[gt]', 'created_at[lte]']);
  });
  test('turns them into the bus filters, in declaration order', () => {
    expect(range.filters({ 'created_at[lte]': '2026-01-02T03:04:05Z' })).toEqual({
      created_at_gt: undefined,
      created_at_lte: '2026-01-02T03:04:05.000Z',
    });
    refuses(() => range.filters({ 'created_at[gt]': 'x', 'created_at[lte]': 'y' }), 'created_at[gt]: must be an RFC 3339 timestamp');
  });
});
