import { readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

/**
 * Checks a value the gateway returned against a type the reference SDK declares, read from the
 * SDK's own `.d.ts` files with the TypeScript checker: every required property present, every
 * present property of its declared type, literals equal, unions satisfied by one member.
 * The SDK's types are the contract ("every object returned has every field the .d.ts declares
 * required, with the declared types"), so the test reads them instead of a hand copy that
 * could drift from the pinned SDK version.
 *
 * `sdkShapeProblems(value, 'BetaManagedAgentsSession')` names a type exported by the SDK's beta
 * resources; it returns the problems found, each with the path to the offending value (empty
 * when the value conforms).
 */

const SDK_ROOT = dirname(require.resolve('@anthropic-ai/sdk/package.json'));
const BETA = join(SDK_ROOT, 'resources/beta');
const PROBE = join(SDK_ROOT, '__sdk_shape_probe__.ts');

let checked: { checker: ts.TypeChecker; types: Map<string, ts.Type> } | undefined;

/**
 * One program over the SDK's beta declarations, built once per test process (it takes a few
 * seconds): a probe file names every interface and type alias each beta module exports.
 */
function sdkTypes() {
  if (checked) return checked;
  const modules = readdirSync(BETA, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.d.ts'))
    .map((f) => join(BETA, f));
  const exports = exportedTypeNames(modules);
  const probeSource = [
    ...modules.map((m, i) => `import type * as M${i} from './${relative(SDK_ROOT, m).replace(/\.d\.ts$/, '')}';`),
    ...exports.map(({ name, module }, i) => `export type T${i} = M${module}.${name};`),
  ].join('\n');
  const host = ts.createCompilerHost({ strict: true, skipLibCheck: true, noEmit: true });
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (f) => (f === PROBE ? probeSource : readFile(f));
  host.fileExists = (f) => f === PROBE || fileExists(f);
  host.getSourceFile = (f, lang, onError, create) =>
    f === PROBE ? ts.createSourceFile(f, probeSource, lang) : getSourceFile(f, lang, onError, create);
  const program = ts.createProgram([PROBE], { strict: true, skipLibCheck: true, noEmit: true, types: [] }, host);
  const checker = program.getTypeChecker();
  const types = new Map<string, ts.Type>();
  program.getSourceFile(PROBE)!.forEachChild((node) => {
    if (!ts.isTypeAliasDeclaration(node)) return;
    const name = exports[Number(node.name.text.slice(1))]!.name;
    // The first module to export a name declares it; later ones re-export it.
    if (!types.has(name)) types.set(name, checker.getTypeAtLocation(node.name));
  });
  checked = { checker, types };
  return checked;
}

/** The interfaces and type aliases each module exports, as (name, module index) pairs. */
function exportedTypeNames(modules: string[]): Array<{ name: string; module: number }> {
  const program = ts.createProgram(modules, { skipLibCheck: true, noEmit: true, types: [] });
  const checker = program.getTypeChecker();
  return modules.flatMap((file, module) => {
    const symbol = checker.getSymbolAtLocation(program.getSourceFile(file)!);
    if (!symbol) return [];
    return checker
      .getExportsOfModule(symbol)
      .filter((s) => {
        const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
        return (target.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias)) !== 0;
      })
      .map((s) => ({ name: s.name, module }));
  });
}

export function sdkShapeProblems(value: unknown, typeName: string): string[] {
  const { checker, types } = sdkTypes();
  const type = types.get(typeName);
  if (!type) throw new Error(`the SDK's beta resources export no type named ${typeName}`);
  const problems: string[] = [];
  conform(checker, value, type, typeName, problems, 0);
  return problems;
}

const typeText = (checker: ts.TypeChecker, t: ts.Type) => checker.typeToString(t).slice(0, 120);

function conform(checker: ts.TypeChecker, value: unknown, type: ts.Type, path: string, problems: string[], depth: number): void {
  if (depth > 40) return;
  const f = type.flags;
  if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return;
  if (type.isUnion()) {
    // Literal members first: `type` discriminators and enums are decided by value.
    for (const member of type.types) {
      const attempt: string[] = [];
      conform(checker, value, member, path, attempt, depth + 1);
      if (attempt.length === 0) return;
    }
    // Report the member the value claims to be (same `type`), or else the union as a whole.
    const claimed = discriminated(checker, value, type.types);
    if (claimed) return conform(checker, value, claimed, path, problems, depth + 1);
    problems.push(`${path}: ${JSON.stringify(value)?.slice(0, 80)} is none of ${typeText(checker, type)}`);
    return;
  }
  if (type.isIntersection()) {
    for (const member of type.types) conform(checker, value, member, path, problems, depth + 1);
    return;
  }
  if (f & ts.TypeFlags.Null) return void (value !== null && problems.push(`${path}: expected null, got ${kind(value)}`));
  if (f & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) {
    return void (value !== undefined && problems.push(`${path}: expected nothing, got ${kind(value)}`));
  }
  if (type.isStringLiteral() || type.isNumberLiteral()) {
    return void (value !== type.value && problems.push(`${path}: expected ${JSON.stringify(type.value)}, got ${JSON.stringify(value)}`));
  }
  if (f & ts.TypeFlags.BooleanLiteral) {
    const expected = checker.typeToString(type) === 'true';
    return void (value !== expected && problems.push(`${path}: expected ${expected}, got ${JSON.stringify(value)}`));
  }
  if (f & ts.TypeFlags.String) return void (typeof value !== 'string' && problems.push(`${path}: expected a string, got ${kind(value)}`));
  if (f & ts.TypeFlags.Number) {
    return void (typeof value !== 'number' && problems.push(`${path}: expected a number, got ${kind(value)}`));
  }
  if (f & ts.TypeFlags.Boolean) {
    return void (typeof value !== 'boolean' && problems.push(`${path}: expected a boolean, got ${kind(value)}`));
  }
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    if (!Array.isArray(value)) return void problems.push(`${path}: expected an array, got ${kind(value)}`);
    const element = checker.getTypeArguments(type as ts.TypeReference)[0];
    if (element) value.forEach((v, i) => conform(checker, v, element, `${path}[${i}]`, problems, depth + 1));
    return;
  }
  if (f & ts.TypeFlags.Object) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return void problems.push(`${path}: expected an object (${typeText(checker, type)}), got ${kind(value)}`);
    }
    const record = value as Record<string, unknown>;
    const declared = new Set<string>();
    for (const prop of checker.getPropertiesOfType(type)) {
      declared.add(prop.name);
      const optional = (prop.flags & ts.SymbolFlags.Optional) !== 0;
      const declaredType = checker.getTypeOfSymbol(prop);
      if (!(prop.name in record) || record[prop.name] === undefined) {
        if (!optional) problems.push(`${path}.${prop.name}: required by the SDK, missing`);
        continue;
      }
      const propType = optional ? withoutUndefined(declaredType) : declaredType;
      conform(checker, record[prop.name], propType, `${path}.${prop.name}`, problems, depth + 1);
    }
    const index = checker.getIndexTypeOfType(type, ts.IndexKind.String);
    if (index) {
      for (const [k, v] of Object.entries(record)) if (!declared.has(k)) conform(checker, v, index, `${path}[${JSON.stringify(k)}]`, problems, depth + 1);
    }
    return;
  }
}

/** An optional property's declared type without the `undefined` strict mode adds to it. */
function withoutUndefined(t: ts.Type): ts.Type {
  if (!t.isUnion()) return t;
  const kept = t.types.filter((m) => !(m.flags & ts.TypeFlags.Undefined));
  return kept.length === 1 ? kept[0]! : t;
}

/** The union member whose `type` literal equals the value's `type`, if any. */
function discriminated(checker: ts.TypeChecker, value: unknown, members: ts.Type[]): ts.Type | undefined {
  if (value === null || typeof value !== 'object' || !('type' in value)) return undefined;
  const claimed = (value as { type: unknown }).type;
  return members.find((m) => {
    const prop = m.getProperty('type');
    if (!prop) return false;
    const t = checker.getTypeOfSymbol(prop);
    return t.isStringLiteral() && t.value === claimed;
  });
}

const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);

/** Fails the test with every problem found when `value` does not conform to the SDK type `typeName`. */
export function expectSdkShape(value: unknown, typeName: string): void {
  const problems = sdkShapeProblems(value, typeName);
  if (problems.length > 0) throw new Error(`not a ${typeName} as the SDK declares it:\n  ${problems.join('\n  ')}`);
}
