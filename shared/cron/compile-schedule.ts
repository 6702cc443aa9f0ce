import { daysInMonth } from './calendar.ts';
import { CronSyntaxError } from './cron-syntax-error.ts';
import { parseCronExpression, type CronFields } from './parse-expression.ts';
import { isValidTimezone, suggestTimezone } from './timezone.ts';

export type CronSchedule = { expression: string; timezone: string };

/** A schedule parsed once, with lookup tables, so computing occurrences does no parsing. */
export type CompiledSchedule = Readonly<{
  expression: string;
  timezone: string;
  fields: CronFields;
  /** Indexed by month 1-12. */
  monthMatches: readonly boolean[];
  /** Indexed by day of month 1-31. */
  dayOfMonthMatches: readonly boolean[];
  /** Indexed by weekday 0-6. */
  dayOfWeekMatches: readonly boolean[];
}>;

/** Throws CronSyntaxError for bad syntax, unknown timezones and expressions that never fire. */
export function compileSchedule(schedule: CronSchedule): CompiledSchedule {
  const compiled = compileScheduleUnchecked(schedule);
  if (!canEverFire(compiled.fields)) {
    throw new CronSyntaxError(
      `expression never fires: no selected month has any of the selected days of month (${compiled.fields.daysOfMonth.join(',')})`,
    );
  }
  return compiled;
}

/** The error message compileSchedule would throw, or null when the schedule is usable. */
export function validateSchedule(schedule: CronSchedule): string | null {
  try {
    compileSchedule(schedule);
    return null;
  } catch (error) {
    if (error instanceof CronSyntaxError) return error.message;
    throw error;
  }
}

/**
 * Parses and checks the timezone but lets never-firing expressions through; only for tests
 * proving the occurrence search terminates on them.
 */
export function compileScheduleUnchecked({ expression, timezone }: CronSchedule): CompiledSchedule {
  const fields = parseCronExpression(expression);
  if (!isValidTimezone(timezone)) {
    const suggestion = suggestTimezone(timezone);
    throw new CronSyntaxError(
      `unknown timezone '${timezone.slice(0, 64)}'${suggestion ? ` (did you mean '${suggestion}'?)` : ''}; use an IANA name such as 'Europe/London' or 'UTC'`,
    );
  }
  return {
    expression,
    timezone,
    fields,
    monthMatches: lookup(fields.months, 13),
    dayOfMonthMatches: lookup(fields.daysOfMonth, 32),
    dayOfWeekMatches: lookup(fields.daysOfWeek, 7),
  };
}

/**
 * Decided on the expanded value sets, never on the restricted flags alone: a restricted field
 * that selected no value once passed as "fires". Any selected weekday exists in every month, so
 * it fires whether it is ORed with the day of month or ANDed with a `*` one. Otherwise some
 * selected day of month must exist in some selected month; Feb 29 counts, since it exists in
 * leap years. Minutes, hours and months can never be empty (the parser rejects such elements),
 * but an empty one would never fire either.
 */
function canEverFire(fields: CronFields): boolean {
  if (fields.minutes.length === 0 || fields.hours.length === 0 || fields.months.length === 0) return false;
  const someWeekday = fields.daysOfWeek.length > 0;
  const someMonthDay = fields.months.some((month) => fields.daysOfMonth.some((day) => day <= daysInMonth(2000, month)));
  if (fields.dayOfMonthRestricted && fields.dayOfWeekRestricted) return someWeekday || someMonthDay;
  return someWeekday && someMonthDay;
}

function lookup(values: number[], size: number): boolean[] {
  const table = new Array<boolean>(size).fill(false);
  for (const value of values) table[value] = true;
  return table;
}
