import { expect, test } from 'bun:test';
import { newId, randomBase62 } from '@shared/ids/ids';

test('random ids: base62 of the length asked, across many refills of the random pool, never the same twice', () => {
  const ids = Array.from({ length: 5000 }, () => randomBase62(24));
  expect(ids.every((id) => /^[0-9A-Za-z]{24}$/.test(id))).toBe(true);
  expect(new Set(ids).size).toBe(ids.length);
  expect(randomBase62(1)).toMatch(/^[0-9A-Za-z]$/);
  expect(randomBase62(300)).toMatch(/^[0-9A-Za-z]{300}$/);
  expect(newId('session')).toMatch(/^sesn_[0-9A-Za-z]{24}$/);
});

test('every character is drawn: over many ids each of the 62 appears', () => {
  const seen = new Set(Array.from({ length: 2000 }, () => randomBase62(24)).join(''));
  expect(seen.size).toBe(62);
});
