import { DAY_MS } from './calendar.ts';

/**
 * UTC offset in effect at an instant, read from Intl.
 *
 * date-fns-tz's getTimezoneOffset/toZonedTime are not used here on purpose: they read and
 * build Dates through the process-local zone, so their answer around DST transitions
 * depends on the server's TZ setting, and getTimezoneOffset answers for a wall-clock time
 * rather than an instant, picking one side of an ambiguous hour.
 */

/*
 * Everything here assumes what holds for every zone in the tz database since 1970: a zone
 * changes its offset at most once in any 24 hours.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Local wall-clock time minus UTC, in milliseconds, at `instantMs` in `timeZone`. */
export function zoneOffsetMs(timeZone: string, instantMs: number): number {
  const fields = { year: 0, month: 1, day: 1, hour: 0, minute: 0, second: 0 };
  for (const part of formatterFor(timeZone).formatToParts(instantMs)) {
    if (part.type in fields) fields[part.type as keyof typeof fields] = Number(part.value);
  }
  const wall = new Date(0);
  wall.setUTCFullYear(fields.year, fields.month - 1, fields.day);
  wall.setUTCHours(fields.hour % 24, fields.minute, fields.second, 0);
  // Intl drops milliseconds, so compare against the instant truncated to the second.
  const wholeSecond = instantMs - (((instantMs % 1000) + 1000) % 1000);
  return wall.getTime() - wholeSecond;
}

/**
 * Offsets at UTC midnights, per zone. Intl costs microseconds per call and the scheduler asks
 * about the same few days for thousands of schedules, while the answer never changes, so
 * these are kept; the cap only guards memory against far-ranging searches.
 */
const midnightOffsets = new Map<string, Map<number, number>>();
const transitions = new Map<string, Map<number, number>>();
let cachedCount = 0;
const MAX_CACHED = 200_000;

function remember(cache: Map<string, Map<number, number>>, timeZone: string, epochDay: number, compute: () => number): number {
  const known = cache.get(timeZone)?.get(epochDay);
  if (known !== undefined) return known;
  if (cachedCount >= MAX_CACHED) {
    midnightOffsets.clear();
    transitions.clear();
    cachedCount = 0;
  }
  const value = compute();
  let zone = cache.get(timeZone);
  if (!zone) cache.set(timeZone, (zone = new Map()));
  zone.set(epochDay, value);
  cachedCount++;
  return value;
}

/** Offset at the UTC midnight starting `epochDay`, cached. */
export function zoneOffsetAtUtcMidnight(timeZone: string, epochDay: number): number {
  return remember(midnightOffsets, timeZone, epochDay, () => zoneOffsetMs(timeZone, epochDay * DAY_MS));
}

/**
 * For a UTC day whose two bounding midnights have different offsets: the first whole second
 * carrying the new offset, cached.
 */
export function zoneTransitionInUtcDay(timeZone: string, epochDay: number): number {
  return remember(transitions, timeZone, epochDay, () => {
    let low = epochDay * DAY_MS;
    let high = low + DAY_MS;
    const before = zoneOffsetMs(timeZone, low);
    while (high - low > 1000) {
      const middle = low + Math.floor((high - low) / 2000) * 1000;
      if (zoneOffsetMs(timeZone, middle) === before) low = middle;
      else high = middle;
    }
    return high;
  });
}

/** Same answer as zoneOffsetMs, without calling Intl when the UTC day around the instant has no change. */
export function zoneOffsetMsCached(timeZone: string, instantMs: number): number {
  const day = Math.floor(instantMs / DAY_MS);
  const atStart = zoneOffsetAtUtcMidnight(timeZone, day);
  return atStart === zoneOffsetAtUtcMidnight(timeZone, day + 1) ? atStart : zoneOffsetMs(timeZone, instantMs);
}
