import { describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The house rules (README, Layout) that a reviewer would otherwise check by eye: no import cycle
 * between files, no file over 300 lines, and every service built the same way. Reads the source
 * as text: nothing is imported or started, so it is fast and gives the same answer every time.
 */
const ROOT = resolve(import.meta.dir, '..', '..');
const MAX_LINES = 300;

/** What a service's src/ may hold besides its three files: the Layout's folders, and the gateway's own modules. */
const SERVICE_FOLDERS = new Set(['handlers', 'domain', 'db', 'clients', 'cli']);
const GATEWAY_FOLDERS = new Set([...SERVICE_FOLDERS, 'modules', 'http', 'routing', 'auth', 'openapi', 'limits', 'idempotency']);
/** The runtime's session driver: the drive loop and its steps, which are no bus handlers (README, Layout). */
const RUNTIME_FOLDERS = new Set([...SERVICE_FOLDERS, 'session-driver']);

const transpiler = new Bun.Transpiler({ loader: 'ts' });
/** `import type { X } from '...'` and `export type { X } from '...'` (and the inline `import { type X }` form scanImports drops when all names are types). */
const TYPE_IMPORT = /^\s*(?:import|export)\s+(?:type\s+)?(?:[\w*$\s,]*\{[^}]*\}|\*\s+as\s+\w+|[\w$]+)\s+from\s+['"]([^'"]+)['"]/gm;

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : tsFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Where an import lands, per tsconfig (relative paths and `@shared/*`); packages are outside the tree and left out. */
function resolveImport(from: string, specifier: string): string | undefined {
  let base: string;
  if (specifier.startsWith('@shared/')) base = join(ROOT, 'shared', specifier.slice('@shared/'.length));
  else if (specifier.startsWith('.')) base = resolve(dirname(from), specifier);
  else return undefined;
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) {
    if (candidate.endsWith('.ts') && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const src = readFileSync(file, 'utf8');
    // scanImports drops type-only imports (they vanish from the output), but a cycle of types is
    // still two files that cannot be read or changed apart: those are read from the text.
    const specifiers = [...transpiler.scanImports(src).map((i) => i.path), ...[...src.matchAll(TYPE_IMPORT)].map((m) => m[1]!)];
    graph.set(file, [...new Set(specifiers.map((s) => resolveImport(file, s)).filter((p): p is string => p !== undefined))]);
  }
  return graph;
}

/** Each cycle once, as the files around it (DFS; a back edge to a file on the stack closes a cycle). */
function findCycles(graph: Map<string, string[]>): string[][] {
  const cycles = new Map<string, string[]>();
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') {
        const cycle = stack.slice(stack.indexOf(next));
        cycles.set([...cycle].sort().join('|'), cycle);
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return [...cycles.values()];
}

const sourceFiles = [...tsFiles(join(ROOT, 'services')), ...tsFiles(join(ROOT, 'shared'))].filter((f) => !f.includes('/migrations/'));
const rel = (file: string) => relative(ROOT, file);

describe('structure', () => {
  test('no import cycle between files in services/ and shared/', () => {
    const cycles = findCycles(importGraph(sourceFiles)).map((cycle) => [...cycle, cycle[0]!].map(rel).join(' -> '));
    if (cycles.length) console.log(`import cycles:\n${cycles.join('\n')}`);
    expect(cycles).toEqual([]);
  });

  test('no handler imports another handler', () => {
    // README, Layout: a handler is one use case. What service.ts registers from handlers/ is a
    // handler; a step two of them share is a db/ or domain/ function (or a handlers/ module that
    // is no handler of its own), never another handler.
    const graph = importGraph(sourceFiles);
    const handlersOf = (file: string) => /^(services\/[^/]+\/src\/handlers)\//.exec(rel(file))?.[1];
    const registered = new Set(
      [...graph].filter(([file]) => rel(file).endsWith('/src/service.ts')).flatMap(([, imports]) => imports.filter((f) => handlersOf(f))),
    );
    const calls = [...graph]
      .flatMap(([file, imports]) => imports.map((target) => [file, target] as const))
      .filter(([file, target]) => registered.has(target) && handlersOf(file) !== undefined && handlersOf(file) === handlersOf(target))
      .map(([file, target]) => `${rel(file)} -> ${rel(target)}`);
    if (calls.length) console.log(`handlers importing handlers:\n${calls.join('\n')}`);
    expect(calls).toEqual([]);
  });

  test(`no file in services/ or shared/ over ${MAX_LINES} lines`, () => {
    const long = sourceFiles
      .map((file) => ({ file: rel(file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines}`);
    if (long.length) console.log(`files over ${MAX_LINES} lines:\n${long.join('\n')}`);
    expect(long).toEqual([]);
  });

  test('every service has main.ts, start-<name>.ts and service.ts, and only the known folders', () => {
    const services = readdirSync(join(ROOT, 'services'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(services.length).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const name of services) {
      const src = join(ROOT, 'services', name, 'src');
      for (const file of ['main.ts', `start-${name}.ts`, 'service.ts']) {
        if (!existsSync(join(src, file))) problems.push(`services/${name}/src/${file} is missing`);
      }
      const allowed = name === 'gateway' ? GATEWAY_FOLDERS : name === 'runtime' ? RUNTIME_FOLDERS : SERVICE_FOLDERS;
      for (const entry of readdirSync(src, { withFileTypes: true })) {
        if (entry.isDirectory() && !allowed.has(entry.name)) problems.push(`services/${name}/src/${entry.name}/ is not a known folder`);
      }
    }
    if (problems.length) console.log(`service shape:\n${problems.join('\n')}`);
    expect(problems).toEqual([]);
  });
});
