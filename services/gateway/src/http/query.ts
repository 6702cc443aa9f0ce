import { Type, type Static, type TObject } from '@sinclair/typebox';
import { invalidRequest } from '@shared/errors/api-error';
import { coerceText } from '@shared/validation/coerce';
import { validate } from '@shared/validation/validate';

/** Parameters the gateway itself consumes on every route. */
const GATEWAY_PARAMS = new Set(['beta']);

/**
 * What a route that declares no query accepts: nothing but `beta`. The guard refuses the rest
 * before any body is read where its rule can tell (domain/query-parameters.ts); this also covers
 * the GETs that rule takes for lists (`.../work/stats`, `.../content`). One object: a schema is
 * compiled once per object (shared/validation/validate.ts), so one made per request was compiled
 * at every request.
 */
export const NO_QUERY = Type.Object({}, { additionalProperties: false });

/**
 * Reads the query string against a route's schema: unknown parameters and repeated
 * single-valued ones are 400, values are converted by their declared type and validated.
 * Names are looked up as the schema's own properties only: `__proto__`, `constructor` and the
 * like are inherited by every object, and assigning `__proto__` to a plain object drops it.
 */
export function parseQuery<T extends TObject>(url: URL, schema: T): Static<T> {
  const out: Record<string, unknown> = Object.create(null);
  const seen = new Set<string>();
  for (const [name, value] of url.searchParams) {
    if (GATEWAY_PARAMS.has(name)) continue;
    const property = Object.hasOwn(schema.properties, name) ? schema.properties[name] : undefined;
    if (!property) throw invalidRequest(`${name}: unknown query parameter`);
    if (seen.has(name)) throw invalidRequest(`${name}: must be given at most once`);
    seen.add(name);
    out[name] = coerceText(property, value);
  }
  return validate(schema, out);
}
