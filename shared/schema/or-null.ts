import { Type, type TNull, type TSchema, type TUnion } from '@sinclair/typebox';

/**
 * `T | null`, written so a validation failure still says what is wrong: a nullable union of
 * objects keeps its variants side by side (the validator then picks the variant by `type`), and
 * a nullable scalar carries a description of its limits instead of "does not match any form".
 */
export function orNull<T extends TSchema>(schema: T, description?: string): TUnion<[T, TNull]> {
  const variants = (schema as { anyOf?: TSchema[] }).anyOf;
  const text = description ?? describeScalar(schema);
  // Same values as Union([T, Null]); only the nesting differs, so the static type is that.
  return Type.Union([...(variants ?? [schema]), Type.Null()], text ? { description: text } : {}) as unknown as TUnion<[T, TNull]>;
}

function describeScalar(schema: TSchema): string | undefined {
  const s = schema as { type?: string; minLength?: number; maxLength?: number; minimum?: number; maximum?: number; description?: string };
  if (s.description) return `${s.description}, or null`;
  if (s.type === 'string') {
    const range =
      s.minLength !== undefined && s.maxLength !== undefined
        ? ` of ${s.minLength} to ${s.maxLength} characters`
        : s.maxLength !== undefined
          ? ` of at most ${s.maxLength} characters`
          : s.minLength !== undefined
            ? ` of at least ${s.minLength} character${s.minLength === 1 ? '' : 's'}`
            : '';
    return `must be a string${range}, or null`;
  }
  if (s.type === 'integer') return `must be an integer from ${s.minimum} to ${s.maximum}, or null`;
  return undefined;
}
