/**
 * IANA timezone validation against the runtime's own tz database (through Intl), so the
 * validator and the code computing offsets can never disagree about which zones exist.
 *
 * Intl resolves names case-insensitively (`america/new_york` works), but we store and echo
 * the identifier, so we insist on the database spelling.
 */

/** Letters, digits and `_+-` in `/`-separated segments; excludes offsets such as `+05:00`, which Intl also accepts. */
const IANA_SHAPE = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;
/** Longest real identifier is 32 characters; the cap only keeps junk away from Intl. */
const MAX_LENGTH = 64;
/** Database spelling of links such as US/Eastern, GB, Etc/UTC, EST5EDT: every segment starts upper-case. */
const LINK_SPELLING = /^[A-Z][^/]*(\/[A-Z][^/]*)*$/;

export type ResolveTimezone = (tz: string) => string;

const resolveWithIntl: ResolveTimezone = (tz) => new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;

let canonicalZones: Set<string> | undefined;
const canonical = (): Set<string> => (canonicalZones ??= new Set(Intl.supportedValuesOf('timeZone')));

const verdicts = new Map<string, boolean>();

export function isValidTimezone(tz: string): boolean {
  if (typeof tz !== 'string') return false;
  let verdict = verdicts.get(tz);
  if (verdict === undefined) {
    verdict = checkTimezone(tz, resolveWithIntl);
    // Bounded so a stream of junk input cannot grow the cache without limit.
    if (verdicts.size < 10_000) verdicts.set(tz, verdict);
  }
  return verdict;
}

/** The spelling the database uses for a zone given in the wrong case, for error messages. */
export function suggestTimezone(tz: string): string | undefined {
  if (!IANA_SHAPE.test(tz) || tz.length > MAX_LENGTH) return undefined;
  try {
    const resolved = resolveWithIntl(tz);
    return resolved !== tz && isValidTimezone(resolved) ? resolved : undefined;
  } catch {
    return undefined;
  }
}

/** Exported with an injectable resolver so both runtime behaviours below can be tested. */
export function checkTimezone(tz: string, resolve: ResolveTimezone): boolean {
  if (tz.length === 0 || tz.length > MAX_LENGTH || !IANA_SHAPE.test(tz)) return false;
  let resolved: string;
  try {
    resolved = resolve(tz);
  } catch {
    return false; // RangeError: not in the database
  }
  if (canonical().has(tz)) return true;
  // Current engines (JSC, recent V8) keep links as given and only fix the case, so an exact
  // round trip means the input is spelled as in the database.
  if (resolved === tz) return true;
  if (resolved.toLowerCase() === tz.toLowerCase()) return false;
  // Older engines replace a link by its target (US/Eastern -> America/New_York), hiding the
  // link's own spelling; fall back to the capitalisation every link name in the database has.
  return LINK_SPELLING.test(tz);
}
