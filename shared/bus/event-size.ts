import { Kind, type TSchema } from '@sinclair/typebox';

/**
 * The largest JSON encoding (in UTF-8 bytes) any value valid against `schema` can have, or an
 * error naming the first field that has no bound. Every string needs a `maxLength` (each UTF-16
 * unit costs at most 6 bytes, `\u0000`), every array a `maxItems`, every object closed
 * (`additionalProperties: false`); records and unknowns are unbounded. A `date-time` string is
 * bounded by the RFC 3339 form shared/validation/formats.ts registers (at most 35 characters).
 */
export function worstCaseJsonBytes(schema: TSchema, path = '(payload)'): number {
  const s = schema as TSchema & Record<string, any>;
  switch (s[Kind]) {
    case 'Literal':
      return Buffer.byteLength(JSON.stringify(s.const));
    case 'String':
      if (typeof s.maxLength === 'number') return 2 + 6 * s.maxLength;
      if (s.format === 'date-time') return 2 + 35;
      throw new Error(`${path}: a string without maxLength`);
    case 'Integer':
    case 'Number':
      return 24;
    case 'Boolean':
      return 5;
    case 'Null':
      return 4;
    case 'Union':
      return Math.max(...(s.anyOf as TSchema[]).map((member, i) => worstCaseJsonBytes(member, `${path}|${i}`)));
    case 'Array':
      if (typeof s.maxItems !== 'number') throw new Error(`${path}: an array without maxItems`);
      return 2 + s.maxItems * (worstCaseJsonBytes(s.items as TSchema, `${path}.*`) + 1);
    case 'Object': {
      if (s.additionalProperties !== false) throw new Error(`${path}: an object that admits unknown properties`);
      let bytes = 2;
      for (const [key, value] of Object.entries(s.properties as Record<string, TSchema>)) {
        bytes += Buffer.byteLength(JSON.stringify(key)) + 2 + worstCaseJsonBytes(value, `${path}.${key}`);
      }
      return bytes;
    }
    default:
      throw new Error(`${path}: ${String(s[Kind])} has no size bound`);
  }
}
