import { expect, test } from 'bun:test';
import { mappedFrom } from '../../../services/sandbox-worker/src/domain/uid-map';

test('the pool spans what the user namespace maps from the base, at most what is wanted', () => {
  expect(mappedFrom(200000, '         0          0 4294967295\n', 65536)).toBe(65536);
  // A pod with hostUsers: false maps 65,536 uids.
  expect(mappedFrom(10000, '0 1234567 65536', 65536)).toBe(55536);
  expect(mappedFrom(200000, '0 1234567 65536', 65536)).toBe(0);
  expect(mappedFrom(70000, '0 100000 65536\n65536 300000 65536', 65536)).toBe(61072);
  expect(mappedFrom(5, '', 10)).toBe(0);
});
