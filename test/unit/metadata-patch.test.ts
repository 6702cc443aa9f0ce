/**
 * The metadata patch on its own. Keys are arbitrary client text, so names that mean something to
 * JavaScript objects (`__proto__`, `constructor`) must be stored like any other key, never
 * swallowed or turned into a prototype change.
 */
import { expect, test } from 'bun:test';
import { applyMetadataPatch } from '@shared/metadata/apply-metadata-patch';

test('a patch upserts, deletes and keeps keys', () => {
  expect(applyMetadataPatch({ a: '1', b: '2' }, { a: 'x', b: null, c: '3' })).toEqual({ a: 'x', c: '3' });
});

test('__proto__ and constructor are ordinary keys: stored, listed and deleted like others', () => {
  // JSON.parse makes __proto__ an own property, as the gateway receives it.
  const patch = JSON.parse('{"__proto__":"p","constructor":"c"}');
  const next = applyMetadataPatch({ a: '1' }, patch);
  expect(Object.keys(next).sort()).toEqual(['__proto__', 'a', 'constructor']);
  expect(JSON.parse(JSON.stringify(next))).toEqual(JSON.parse('{"a":"1","__proto__":"p","constructor":"c"}'));
  expect(Object.getPrototypeOf(next)).toBe(Object.prototype);
  const removed = applyMetadataPatch(next, JSON.parse('{"__proto__":null}'));
  expect(Object.keys(removed).sort()).toEqual(['a', 'constructor']);
});
