import { Type, type TOptional, type TString } from '@sinclair/typebox';
import { invalidRequest } from '@shared/errors/api-error';
import { parseRfc3339 } from '@shared/schema/rfc3339';

export type BoundKind = 'gt' | 'gte' | 'lt' | 'lte';

/** The query parameter of a bound, as the SDK writes it: `created_at[gte]`. */
export type BoundParameter<K extends BoundKind> = `created_at[${K}]`;
/** The list filter a bound becomes on the bus: `created_at_gte`. */
export type BoundFilter<K extends BoundKind> = `created_at_${K}`;

/**
 * Reads a `created_at[<kind>]` list filter. Creation times are stored to the millisecond, so a
 * bound finer than that is rounded inward to keep the comparison exact: `gte` and `lt` up to the
 * next millisecond, `gt` and `lte` down (which `toISOString` already does).
 */
export function createdAtBound(kind: BoundKind, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const date = parseRfc3339(value);
  if (!date) throw invalidRequest(`created_at[${kind}]: must be an RFC 3339 timestamp`);
  const subMillisecond = /\.\d{3}0*[1-9]/.test(value);
  const roundUp = subMillisecond && (kind === 'gte' || kind === 'lt');
  return new Date(date.getTime() + (roundUp ? 1 : 0)).toISOString();
}

/**
 * The `created_at` bounds one list accepts, declared once: `query` goes into the list's query
 * schema (text, checked by `createdAtBound`), `filters` turns the parsed query into the bus
 * filters, checking the bounds in the order they were declared.
 */
export function createdAtRange<K extends BoundKind>(...kinds: K[]) {
  const query = Object.fromEntries(kinds.map((kind) => [`created_at[${kind}]`, Type.Optional(Type.String({ minLength: 1 }))]));
  return {
    query: query as { [P in BoundParameter<K>]: TOptional<TString> },
    filters(parsed: { [P in BoundParameter<K>]?: string }): { [F in BoundFilter<K>]: string | undefined } {
      const bounds = Object.fromEntries(kinds.map((kind) => [`created_at_${kind}`, createdAtBound(kind, parsed[`created_at[${kind}]`])]));
      return bounds as { [F in BoundFilter<K>]: string | undefined };
    },
  };
}
