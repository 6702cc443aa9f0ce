import { expect, test } from 'bun:test';
import { OwnAppends } from '../../../services/runtime/src/domain/own-appends';

test('an append is known by its session, last sequence and count; forgotten oldest first within its bounds', () => {
  const own = new OwnAppends(2, 2);
  own.add('sesn_a', 5, 2);
  expect(own.has('sesn_a', 5, 2)).toBe(true);
  expect(own.has('sesn_a', 5, 1)).toBe(false);
  expect(own.has('sesn_a', 5, 0)).toBe(false);
  expect(own.has('sesn_a', 5, undefined)).toBe(false);
  expect(own.has('sesn_b', 5, 2)).toBe(false);
  own.add('sesn_a', 8, 3);
  own.add('sesn_a', 9, 1); // a third end of the session: its oldest goes
  expect(own.has('sesn_a', 5, 2)).toBe(false);
  expect(own.has('sesn_a', 8, 3)).toBe(true);
  own.add('sesn_b', 2, 1);
  own.add('sesn_a', 10, 1); // used last: sesn_b is now the oldest session
  own.add('sesn_c', 4, 4);
  expect(own.has('sesn_b', 2, 1)).toBe(false);
  expect(own.has('sesn_a', 10, 1)).toBe(true);
  expect(own.has('sesn_c', 4, 4)).toBe(true);
});
