import type { TSchema } from '@sinclair/typebox';

/**
 * Converts one text value (a query parameter, an environment variable) to the type its schema
 * declares, before validation: integers written as plain decimal digits, numbers also with a
 * decimal fraction (`0.25`, a sampling ratio), booleans as
 * true/1/yes or false/0/no. Anything else stays text, so validation names the field ("must be an
 * integer"). TypeBox's `Value.Convert` is not used: it reads `1.5` as the integer 1, `1e3` as 1
 * and `0x10` as 0, where the API answers 400.
 */
export function coerceText(schema: TSchema, raw: string): unknown {
  const kind = (schema as { type?: string }).type;
  if (kind === 'integer') return /^-?\d+$/.test(raw) ? Number(raw) : raw;
  if (kind === 'number') return /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
  if (kind === 'boolean') {
    if (/^(true|1|yes)$/i.test(raw)) return true;
    if (/^(false|0|no)$/i.test(raw)) return false;
  }
  return raw;
}
