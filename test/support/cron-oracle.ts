import type { CronFields } from '@shared/cron/index.ts';

/**
 * Brute-force reference for the occurrence engine: visit every whole UTC minute in the
 * range, ask Intl for the wall clock in the zone, and keep the minutes whose wall clock
 * matches. It shares no time arithmetic with the engine (no offsets, no day walking, no
 * date-fns), so agreement between the two is meaningful. Slow: keep ranges to a few days.
 */
export function oracleOccurrences(fields: CronFields, timeZone: string, fromExclusive: Date, toInclusive: Date): Date[] {
  const formatter = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    weekday: 'short',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  });
  const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const result: Date[] = [];
  const firstMinute = Math.floor(fromExclusive.getTime() / 60_000) + 1;
  const lastMinute = Math.floor(toInclusive.getTime() / 60_000);
  for (let minute = firstMinute; minute <= lastMinute; minute++) {
    const instant = new Date(minute * 60_000);
    const wall: Record<string, string> = {};
    for (const part of formatter.formatToParts(instant)) wall[part.type] = part.value;
    const byMonthDay = fields.daysOfMonth.includes(Number(wall.day));
    const byWeekday = fields.daysOfWeek.includes(weekdays.indexOf(wall.weekday));
    const dayOk =
      fields.dayOfMonthRestricted && fields.dayOfWeekRestricted ? byMonthDay || byWeekday : byMonthDay && byWeekday;
    if (
      dayOk &&
      fields.months.includes(Number(wall.month)) &&
      fields.hours.includes(Number(wall.hour) % 24) &&
      fields.minutes.includes(Number(wall.minute))
    ) {
      result.push(instant);
    }
  }
  return result;
}
