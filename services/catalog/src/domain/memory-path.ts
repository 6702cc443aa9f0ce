import { invalidRequest } from '@shared/errors/api-error';

/**
 * A memory's path, as the SDK states it (MemoryCreateParams.path): it starts with `/` and has 1
 * to 20 segments; a segment is not empty, `.` or `..`; no control or format characters, nor the
 * line and paragraph separators U+2028 and U+2029 (nor a lone surrogate, which has no UTF-8
 * form); in Unicode Normalization Form C; at most 1,024 bytes. Paths are case-sensitive and
 * compared as they are: nothing is normalized for the caller.
 */
export const MEMORY_PATH_MAX_BYTES = 1024;
export const MEMORY_PATH_MAX_SEGMENTS = 20;

const FORBIDDEN_CHARACTERS = /[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/u;

/** The first rule `path` breaks, as the words after `<field>: `; undefined when it is a path. */
function pathProblem(path: string, maxSegments = MEMORY_PATH_MAX_SEGMENTS): string | undefined {
  if (!path.startsWith('/')) return 'must start with /';
  if (FORBIDDEN_CHARACTERS.test(path)) return 'must not contain control or format characters, U+2028 or U+2029';
  if (path.normalize('NFC') !== path) return 'must be in Unicode Normalization Form C';
  if (Buffer.byteLength(path, 'utf8') > MEMORY_PATH_MAX_BYTES) return `must be at most ${MEMORY_PATH_MAX_BYTES} bytes`;
  const segments = path.slice(1).split('/');
  if (segments.length > maxSegments) return `must have at most ${maxSegments} segments`;
  if (segments.some((segment) => segment === '')) return 'must not have an empty segment (a trailing or doubled /)';
  if (segments.some((segment) => segment === '.' || segment === '..')) return 'must not have a . or .. segment';
  return undefined;
}

/** 400 naming `field` when `path` is not a memory path. */
export function checkMemoryPath(path: string, field = 'path'): void {
  const problem = pathProblem(path);
  if (problem) throw invalidRequest(`${field}: ${problem}`);
}

/**
 * A list's `path_prefix`: `/` (the whole store), or a directory, that is a path one segment
 * short of the most a memory may have, followed by `/`.
 */
export function checkPathPrefix(prefix: string): void {
  if (!prefix.startsWith('/') || !prefix.endsWith('/')) throw invalidRequest('path_prefix: must start and end with /');
  if (prefix === '/') return;
  const problem = pathProblem(prefix.slice(0, -1), MEMORY_PATH_MAX_SEGMENTS - 1);
  if (problem) throw invalidRequest(`path_prefix: ${problem}`);
}

/** `/a/b/c` -> `/a`, `/a/b`: the paths a memory at `path` would sit below. */
export function ancestorPaths(path: string): string[] {
  const segments = path.slice(1).split('/');
  return segments.slice(0, -1).map((_, i) => `/${segments.slice(0, i + 1).join('/')}`);
}

/**
 * The first path after every path below the directory `prefix` (which ends with `/`): `/a/` ->
 * `/a0`, since `0` is the character after `/`. In byte order, the paths from `prefix` up to
 * (not including) this one are exactly those that start with `prefix`.
 */
export const subtreeEnd = (prefix: string): string => `${prefix.slice(0, -1)}0`;

/**
 * What a list shows for the memory at `path` below `prefix` with `depth`: the memory itself, or
 * the directory `depth` segments below the prefix that stands for it (with its trailing `/`).
 */
export function listedAs(path: string, prefix: string, depth: number): { prefix: string } | 'memory' {
  if (depth === 0) return 'memory';
  const below = path.slice(prefix.length).split('/');
  if (below.length <= depth) return 'memory';
  return { prefix: `${prefix}${below.slice(0, depth).join('/')}/` };
}
