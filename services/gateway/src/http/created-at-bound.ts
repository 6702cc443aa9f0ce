import { invalidRequest } from '@shared/errors/api-error';
import { parseRfc3339 } from '@shared/schema/rfc3339';

export type BoundKind = 'gt' | 'gte' | 'lt' | 'lte';

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
