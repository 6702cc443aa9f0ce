/** The memory rules with nothing but their inputs: paths, prefixes, list roll-ups and update plans. */
import { describe, expect, test } from 'bun:test';
import { contentDigest, planUpdate } from '../../../services/catalog/src/domain/memory';
import { ancestorPaths, checkMemoryPath, checkPathPrefix, listedAs, subtreeEnd } from '../../../services/catalog/src/domain/memory-path';
import type { MemoryRow } from '../../../services/catalog/src/db/schema';
import { messageOf } from '../../support/expect';

describe('memory paths', () => {
  test('accepts paths of 1 to 20 whole segments, refuses the rest naming the field', () => {
    expect(messageOf(() => checkMemoryPath('/a/b c/ü.md'))).toBe('no error');
    expect(messageOf(() => checkMemoryPath(`/${Array(20).fill('s').join('/')}`))).toBe('no error');
    expect(messageOf(() => checkMemoryPath(`/${Array(21).fill('s').join('/')}`))).toBe('path: must have at most 20 segments');
    expect(messageOf(() => checkMemoryPath('/'))).toStartWith('path: must not have an empty segment');
    expect(messageOf(() => checkMemoryPath('/a\uFEFF', 'update.path'))).toStartWith('update.path: must not contain');
    expect(messageOf(() => checkMemoryPath('/\uD800'))).toStartWith('path: must not contain');
    expect(messageOf(() => checkMemoryPath(`/${'a'.repeat(1023)}`))).toBe('no error');
    expect(messageOf(() => checkMemoryPath(`/${'a'.repeat(1024)}`))).toBe('path: must be at most 1024 bytes');
  });

  test('prefixes are / or a directory ending with /', () => {
    expect(messageOf(() => checkPathPrefix('/'))).toBe('no error');
    expect(messageOf(() => checkPathPrefix('/a/b/'))).toBe('no error');
    expect(messageOf(() => checkPathPrefix('/a'))).toBe('path_prefix: must start and end with /');
    expect(messageOf(() => checkPathPrefix('/a//'))).toStartWith('path_prefix: must not have an empty segment');
  });

  test('ancestors, the end of a subtree in byte order, and what a list shows at a depth', () => {
    expect(ancestorPaths('/a/b/c')).toEqual(['/a', '/a/b']);
    expect(ancestorPaths('/a')).toEqual([]);
    expect(subtreeEnd('/a/')).toBe('/a0');
    const inSubtree = ['/a/', '/a/x', '/a/\u{10FFFF}'].every((p) => p >= '/a/' && p < subtreeEnd('/a/'));
    const outside = ['/a', '/a-b', '/a0', '/a.md', '/b'].every((p) => !(p >= '/a/' && p < subtreeEnd('/a/')));
    expect([inSubtree, outside]).toEqual([true, true]);
    expect(listedAs('/a/b/c.md', '/', 0)).toBe('memory');
    expect(listedAs('/a/b/c.md', '/', 1)).toEqual({ prefix: '/a/' });
    expect(listedAs('/a/b/c.md', '/', 2)).toEqual({ prefix: '/a/b/' });
    expect(listedAs('/a/b/c.md', '/a/', 2)).toBe('memory');
    expect(listedAs('/top.md', '/', 1)).toBe('memory');
  });
});

describe('memory updates', () => {
  const current = { id: 'mem_x', path: '/p', content: 'now', ...contentDigest('now') } as MemoryRow;
  const stale = { type: 'content_sha256' as const, content_sha256: contentDigest('before').contentSha256 };

  test('omitted fields are kept; nothing new is no change', () => {
    expect(planUpdate(current, { path: '/q' })).toEqual({ change: true, content: 'now', path: '/q' });
    expect(planUpdate(current, { content: null, path: null })).toEqual({ change: false });
    expect(planUpdate(current, { content: 'now' })).toEqual({ change: false });
  });

  test('a stale precondition fails unless the memory already is as asked', () => {
    expect(messageOf(() => planUpdate(current, { content: 'next', precondition: stale }))).toContain('precondition.content_sha256');
    expect(planUpdate(current, { content: 'now', path: '/p', precondition: stale })).toEqual({ change: false });
    // Nothing asked but the precondition: it is checked.
    expect(messageOf(() => planUpdate(current, { precondition: stale }))).toContain('does not match');
    expect(contentDigest('é')).toEqual({ contentSha256: expect.stringMatching(/^[0-9a-f]{64}$/), contentSizeBytes: 2 });
  });
});
