import { type Static, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { type ValueError, ValueErrorType } from '@sinclair/typebox/errors';
import { invalidRequest } from '../errors/api-error';
import './formats';

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

function checkerFor<T extends TSchema>(schema: T): TypeCheck<T> {
  let check = compiled.get(schema);
  if (!check) {
    check = TypeCompiler.Compile(schema);
    compiled.set(schema, check);
  }
  return check as TypeCheck<T>;
}

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
    case ValueErrorType.Integer:
      return 'must be an integer';
    case ValueErrorType.String:
      return 'must be a string';
    case ValueErrorType.Boolean:
      return 'must be a boolean';
    case ValueErrorType.Object:
      return 'must be an object';
    case ValueErrorType.Array:
      return 'must be an array';
    case ValueErrorType.Null:
      return 'must be null';
    default:
      return error.message.replace(/^Expected/, 'expected');
  }
}

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
 * Picks the union member a value was meant for: by its `type` discriminator when it has one,
 * else the only member of the value's own kind (e.g. the object member of `object | null`).
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
  const error = firstUsefulError(schema, value);
  if (!error) return value as Static<T>;
  if (error.type === ValueErrorType.ObjectAdditionalProperties && isKeyPatternRecord(error.schema)) {
    // A key outside a record's key pattern (e.g. metadata key length): name the record.
    const parent = error.path.slice(0, error.path.lastIndexOf('/'));
    throw invalidRequest(`${fieldPath(parent, root)}: ${keyPatternMessage(error.schema)}`);
  }
  throw invalidRequest(`${fieldPath(error.path, root)}: ${describe(error)}`);
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
