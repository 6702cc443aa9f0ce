import { type Static, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { type ValueError, ValueErrorType } from '@sinclair/typebox/errors';
import { invalidRequest } from '../errors/api-error';
import { invalidMetadata, isMetadataField } from '../metadata/apply-metadata-patch';
import './formats';

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();
let compilations = 0;

/**
 * A schema's compiled check, compiled once per schema object: a schema built anew for every
 * request is compiled at every request (a stream's query was: a twentieth of its open's CPU).
 */
function checkerFor<T extends TSchema>(schema: T): TypeCheck<T> {
  let check = compiled.get(schema);
  if (!check) {
    check = TypeCompiler.Compile(schema);
    compiled.set(schema, check);
    compilations += 1;
  }
  return check as TypeCheck<T>;
}

/** How many schemas this process has compiled: tests check that serving a request compiles none anew. */
export const schemaCompilations = (): number => compilations;

/** `/initial_events/0/content/0/text` -> `initial_events.0.content.0.text` */
export function fieldPath(pointer: string, root?: string): string {
  const inner = pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
  if (root && inner) return `${root}.${inner}`;
  return inner || root || 'body';
}

function describe(error: ValueError): string {
  const s = error.schema as Record<string, unknown>;
  switch (error.type) {
    case ValueErrorType.StringMinLength:
      return `must be at least ${s.minLength} character${s.minLength === 1 ? '' : 's'}`;
    case ValueErrorType.StringMaxLength:
      return `must be at most ${s.maxLength} characters`;
    case ValueErrorType.ArrayMinItems:
      return `must contain at least ${s.minItems} item${s.minItems === 1 ? '' : 's'}`;
    case ValueErrorType.ArrayMaxItems:
      return `must contain at most ${s.maxItems} items`;
    case ValueErrorType.ObjectMaxProperties:
      return `must have at most ${s.maxProperties} entries`;
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.IntegerMinimum:
      return `must be at least ${s.minimum}`;
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.IntegerMaximum:
      return `must be at most ${s.maximum}`;
    case ValueErrorType.ObjectAdditionalProperties:
      return 'unknown property';
    case ValueErrorType.ObjectRequiredProperty:
      return 'is required';
    case ValueErrorType.Literal:
      return `must be ${JSON.stringify(s.const)}`;
    case ValueErrorType.Union:
      return describeUnion(s);
    case ValueErrorType.StringPattern:
      return typeof s.description === 'string' ? s.description : `must match ${s.pattern}`;
    default:
      return WRONG_TYPE[error.type] ?? error.message.replace(/^Expected/, 'expected');
  }
}

/** A value of the wrong JSON type, said the same way for every field. */
const WRONG_TYPE: Partial<Record<ValueErrorType, string>> = {
  [ValueErrorType.Integer]: 'must be an integer',
  [ValueErrorType.String]: 'must be a string',
  [ValueErrorType.Boolean]: 'must be a boolean',
  [ValueErrorType.Object]: 'must be an object',
  [ValueErrorType.Array]: 'must be an array',
  [ValueErrorType.Null]: 'must be null',
};

function describeUnion(schema: Record<string, unknown>): string {
  const variants = (schema.anyOf as Array<Record<string, unknown>> | undefined) ?? [];
  const literals = variants.filter((v) => 'const' in v).map((v) => JSON.stringify(v.const));
  if (literals.length === variants.length && literals.length > 0) return `must be one of ${literals.join(', ')}`;
  if (typeof schema.description === 'string') return schema.description;
  return 'does not match any allowed form';
}

/**
 * Unknown properties are reported where they stand (the path names the property itself), and
 * for a discriminated union the message comes from the variant the `type` field selected, so
 * callers read `resources.0.url: is required`, not a generic "does not match any variant".
 */
function firstUsefulError<T extends TSchema>(schema: T, value: unknown): ValueError | undefined {
  const errors = [...checkerFor(schema).Errors(value)];
  if (errors.length === 0) return undefined;
  const nonUnion = errors.filter((e) => e.type !== ValueErrorType.Union);
  const additional = nonUnion.find((e) => e.type === ValueErrorType.ObjectAdditionalProperties);
  const deepest = [...nonUnion].sort((a, b) => b.path.length - a.path.length)[0];
  const union = errors.find((e) => e.type === ValueErrorType.Union);
  if (union) {
    const variant = selectVariant(union.schema, valueAt(value, union.path));
    if (variant) {
      const inner = firstUsefulError(variant, valueAt(value, union.path));
      if (inner) return { ...inner, path: union.path + inner.path };
    }
    if (!deepest || deepest.path.length <= union.path.length) return union;
  }
  return additional ?? deepest ?? errors[0];
}

/**
 * Picks the union member a value was meant for: by its `type` discriminator when it has one
 * (else by `name`, which keys the agent toolset's per-tool configurations, whose `type` is
 * optional), else the only member of the value's own kind (e.g. the object member of `object | null`).
 */
function selectVariant(schema: TSchema, value: unknown): TSchema | undefined {
  const variants = (schema as { anyOf?: TSchema[] }).anyOf;
  if (!variants) return undefined;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const type = (value as Record<string, unknown>).type;
    const byType = variants.find((v) => {
      const prop = (v as { properties?: Record<string, { const?: unknown }> }).properties?.type;
      return prop && prop.const === type;
    });
    if (byType) return byType;
    const name = (value as Record<string, unknown>).name;
    const byName = variants.find((v) => {
      const prop = (v as { properties?: Record<string, { const?: unknown }> }).properties?.name;
      return prop && prop.const !== undefined && prop.const === name;
    });
    if (byName) return byName;
  }
  const kind = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' ? 'number' : typeof value;
  const sameKind = variants.filter((v) => {
    const t = (v as { type?: string }).type;
    return t === kind || (kind === 'number' && t === 'integer');
  });
  return sameKind.length === 1 ? sameKind[0] : undefined;
}

function valueAt(value: unknown, pointer: string): unknown {
  let current = value;
  for (const part of pointer.split('/').slice(1)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return current;
}

/** Validates or throws a 400 whose message names the field path. */
export function validate<T extends TSchema>(schema: T, value: unknown, root?: string): Static<T> {
  // The compiled check first: the error walk (TypeBox's interpreted Errors iterator) is only
  // for a value that fails, and was a twentieth of a service's CPU when run on every request.
  const error = checkerFor(schema).Check(value) ? undefined : firstUsefulError(schema, value);
  if (!error) {
    const surrogate = loneSurrogateAt(value, '');
    if (surrogate !== undefined) throw fieldError(fieldPath(surrogate, root), LONE_SURROGATE);
    const oversized = oversizedAt(schema, value, '');
    if (oversized) throw fieldError(fieldPath(oversized.pointer, root), `must be at most ${oversized.maxBytes} bytes as JSON`);
    return value as Static<T>;
  }
  if (error.type === ValueErrorType.ObjectAdditionalProperties && isKeyPatternRecord(error.schema)) {
    // A key outside a record's key pattern (e.g. metadata key length): name the record.
    const parent = error.path.slice(0, error.path.lastIndexOf('/'));
    throw fieldError(fieldPath(parent, root), keyPatternMessage(error.schema));
  }
  throw fieldError(fieldPath(error.path, root), describe(error));
}

/** The 400 naming a field; metadata's carries the SDK's `invalid_metadata` code, on every resource. */
function fieldError(field: string, message: string) {
  return isMetadataField(field) ? invalidMetadata(`${field}: ${message}`) : invalidRequest(`${field}: ${message}`);
}

function isKeyPatternRecord(schema: TSchema): boolean {
  const patterns = (schema as { patternProperties?: Record<string, unknown> }).patternProperties;
  return patterns !== undefined && Object.keys(patterns).some((p) => p !== '^(.*)$');
}

function keyPatternMessage(schema: TSchema): string {
  const pattern = Object.keys((schema as unknown as { patternProperties: Record<string, unknown> }).patternProperties)[0];
  const length = /\{(\d+),(\d+)\}\$$/.exec(pattern);
  return length ? `keys must be ${length[1]} to ${length[2]} characters` : `keys must match ${pattern}`;
}

export function isValid<T extends TSchema>(schema: T, value: unknown): value is Static<T> {
  return checkerFor(schema).Check(value);
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE_PATTERN = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATE = 'contains a lone surrogate (text must be well-formed Unicode)';

/**
 * Where the first string (or object key) holding an unpaired UTF-16 surrogate is, as a JSON
 * pointer. `JSON.parse` turns the escape `"\ud800"` into such a string; the databases' JSON
 * checks refuse it, so it would surface as a 500 on insert. Every validated value is walked,
 * whatever its schema: keys of records and free-form objects included.
 */
function loneSurrogateAt(value: unknown, pointer: string): string | undefined {
  if (typeof value === 'string') return LONE_SURROGATE_PATTERN.test(value) ? pointer : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const found = loneSurrogateAt(value[i], `${pointer}/${i}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
      // A bad key is reported at the object that holds it: the key itself cannot be printed.
      if (LONE_SURROGATE_PATTERN.test(key)) return pointer;
      const found = loneSurrogateAt(inner, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * `maxBytes` is this product's schema keyword for a limit on a value's size as UTF-8 JSON (what
 * is stored and sent), for values whose count and item limits alone multiply to many megabytes
 * (`initial_events`, `resources`). TypeBox ignores unknown keywords, so it is checked here, after
 * the schema has passed; only schemas that carry it somewhere are walked.
 */
function oversizedAt(schema: TSchema, value: unknown, pointer: string): { pointer: string; maxBytes: number } | undefined {
  if (!carriesByteLimit(schema)) return undefined;
  const s = schema as Record<string, unknown>;
  if (typeof s.maxBytes === 'number' && Buffer.byteLength(JSON.stringify(value) ?? '') > s.maxBytes) {
    return { pointer, maxBytes: s.maxBytes };
  }
  if (Array.isArray(s.anyOf)) {
    const variant = (s.anyOf as TSchema[]).find((v) => isValid(v, value));
    return variant ? oversizedAt(variant, value, pointer) : undefined;
  }
  if (Array.isArray(value) && s.items) {
    for (let i = 0; i < value.length; i += 1) {
      const found = oversizedAt(s.items as TSchema, value[i], `${pointer}/${i}`);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object' && s.properties) {
    for (const [key, inner] of Object.entries(s.properties as Record<string, TSchema>)) {
      if (!(key in value)) continue;
      const found = oversizedAt(inner, (value as Record<string, unknown>)[key], `${pointer}/${key}`);
      if (found) return found;
    }
  }
  return undefined;
}

const byteLimited = new WeakMap<TSchema, boolean>();

function carriesByteLimit(schema: TSchema): boolean {
  let known = byteLimited.get(schema);
  if (known === undefined) {
    const s = schema as Record<string, unknown>;
    const children = [
      ...(Array.isArray(s.anyOf) ? (s.anyOf as TSchema[]) : []),
      ...(s.items && typeof s.items === 'object' ? [s.items as TSchema] : []),
      ...(s.properties ? Object.values(s.properties as Record<string, TSchema>) : []),
    ];
    known = typeof s.maxBytes === 'number' || children.some(carriesByteLimit);
    byteLimited.set(schema, known);
  }
  return known;
}
