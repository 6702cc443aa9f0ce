import { DAY_MS, HOUR_MS, MINUTE_MS, civilFromEpochDay, daysInMonth, epochDayOf } from './calendar.ts';
import type { CompiledSchedule } from './compile-schedule.ts';
import { zoneOffsetAtUtcMidnight, zoneOffsetMsCached, zoneTransitionInUtcDay } from './zone-offset.ts';

/*
 * Literal wall-clock semantics: a schedule fires at every instant whose local time in its
 * zone matches the fields. A local time skipped by a DST jump never fires that day; one
 * that occurs twice when clocks fall back fires twice. (cron-parser's next() shifts skipped
 * times forward and fires repeated ones once, which is why it is not used here.)
 *
 * The search walks local calendar days that match month/day-of-month/day-of-week, then the
 * matching hours and minutes of each day, and maps each local time to its 0, 1 or 2 instants.
 */

/**
 * The longest gap between two fires of a schedule that fires at all: Feb 29 across a
 * skipped leap year (2096 -> 2104). Searching further than this without a hit gives up.
 */
const MAX_GAP_DAYS = 8 * 366 + 2;

/**
 * A local day's offsets are sampled at the UTC midnights from a day before to two days after
 * its wall-clock midnight: with offsets within -12h..+14h its instants lie in
 * [midnight - 14h, midnight + 36h). Zones never change offset twice within a day.
 */
const SAMPLED_DAYS_FROM_MIDNIGHT = [-1, 0, 1, 2];

/** Up to `count` fire instants strictly after `after`, ascending. */
export function nextOccurrences(schedule: CompiledSchedule, after: Date, count: number): Date[] {
  return search(schedule, instantOf(after, 'after'), Number.POSITIVE_INFINITY, count);
}

export function nextOccurrence(schedule: CompiledSchedule, after: Date): Date | null {
  return nextOccurrences(schedule, after, 1)[0] ?? null;
}

/** Fire instants in (fromExclusive, toInclusive], ascending, at most `limit` of them. */
export function occurrencesBetween(
  schedule: CompiledSchedule,
  fromExclusive: Date,
  toInclusive: Date,
  limit: number,
): Date[] {
  return search(schedule, instantOf(fromExclusive, 'fromExclusive'), instantOf(toInclusive, 'toInclusive'), limit);
}

function instantOf(date: Date, name: string): number {
  const ms = date instanceof Date ? date.getTime() : Number.NaN;
  if (!Number.isFinite(ms)) throw new RangeError(`${name} must be a valid Date`);
  return ms;
}

function search(schedule: CompiledSchedule, afterMs: number, untilMs: number, limit: number): Date[] {
  limit = Math.floor(limit);
  if (!(limit >= 1) || untilMs <= afterMs) return [];
  const found: number[] = [];
  const { timezone } = schedule;

  // Start a day early: where clocks fall back across midnight, instants after `after` can
  // carry the previous local date.
  let day = Math.floor((afterMs + zoneOffsetMsCached(timezone, afterMs)) / DAY_MS) - 1;
  const lastDay = Number.isFinite(untilMs) ? Math.floor((untilMs + 14 * HOUR_MS) / DAY_MS) : Number.POSITIVE_INFINITY;
  let giveUpAfter = day + MAX_GAP_DAYS + 1;
  // Once enough instants are found on a day near a transition, the next local day may still
  // hold earlier instants (fall-back across midnight), so look at one more day.
  let settleAfter = Number.POSITIVE_INFINITY;

  while (day <= lastDay && day <= giveUpAfter && day <= settleAfter) {
    const date = civilFromEpochDay(day);
    if (!schedule.monthMatches[date.month]) {
      day = epochDayOf(date.year, date.month + 1, 1);
      continue;
    }
    if (dayMatches(schedule, date.day, date.weekday)) {
      const before = found.length;
      const ordered = collectDay(schedule, day, afterMs, untilMs, limit, found);
      if (found.length > before) giveUpAfter = day + MAX_GAP_DAYS;
      if (found.length >= limit) {
        if (ordered) break;
        settleAfter = Math.min(settleAfter, day + 1);
      }
    }
    day = date.day === daysInMonth(date.year, date.month) ? epochDayOf(date.year, date.month + 1, 1) : day + 1;
  }

  found.sort((a, b) => a - b);
  return found.slice(0, limit).map((ms) => new Date(ms));
}

/** Day-of-month and day-of-week are ORed when both are restricted (classic cron), else ANDed with the `*` one matching everything. */
function dayMatches(schedule: CompiledSchedule, dayOfMonth: number, weekday: number): boolean {
  const byMonthDay = schedule.dayOfMonthMatches[dayOfMonth];
  const byWeekday = schedule.dayOfWeekMatches[weekday];
  const { dayOfMonthRestricted, dayOfWeekRestricted } = schedule.fields;
  return dayOfMonthRestricted && dayOfWeekRestricted ? byMonthDay || byWeekday : byMonthDay && byWeekday;
}

/**
 * Appends the day's instants in (afterMs, untilMs] to `found`. Returns true when the zone's
 * offset is constant around the whole day, in which case the instants are appended in order
 * and come after every earlier day's, so the caller may stop as soon as it has enough.
 */
function collectDay(
  schedule: CompiledSchedule,
  day: number,
  afterMs: number,
  untilMs: number,
  limit: number,
  found: number[],
): boolean {
  const { timezone, fields } = schedule;
  const { hours, minutes } = fields;
  const midnight = day * DAY_MS; // wall-clock midnight, written as if it were UTC
  const samples = SAMPLED_DAYS_FROM_MIDNIGHT.map((delta) => day + delta);
  const offsets = samples.map((sample) => zoneOffsetAtUtcMidnight(timezone, sample));

  if (offsets.every((offset) => offset === offsets[0])) {
    const offset = offsets[0];
    for (const hour of hours) {
      for (const minute of minutes) {
        const instant = midnight + hour * HOUR_MS + minute * MINUTE_MS - offset;
        if (instant <= afterMs) continue;
        if (instant > untilMs) return true;
        found.push(instant);
        if (found.length >= limit) return true;
      }
    }
    return true;
  }

  // A transition is near. Locate each one, then a local time maps to every instant
  // t = wall - offset, over the offsets around the day, whose own offset is that offset:
  // none for a skipped time, two for a repeated one.
  const changes: { at: number; offset: number }[] = [];
  for (let i = 0; i + 1 < samples.length; i++) {
    if (offsets[i] !== offsets[i + 1]) {
      changes.push({ at: zoneTransitionInUtcDay(timezone, samples[i]), offset: offsets[i + 1] });
    }
  }
  const offsetOf = (instant: number): number => {
    let offset = offsets[0];
    for (const change of changes) if (instant >= change.at) offset = change.offset;
    return offset;
  };
  const candidates = [...new Set(offsets)];
  for (const hour of hours) {
    for (const minute of minutes) {
      const wall = midnight + hour * HOUR_MS + minute * MINUTE_MS;
      for (const offset of candidates) {
        const instant = wall - offset;
        if (instant > afterMs && instant <= untilMs && offsetOf(instant) === offset) found.push(instant);
      }
    }
  }
  return false;
}
