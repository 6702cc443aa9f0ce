/** Proleptic Gregorian arithmetic on "epoch days" (days since 1970-01-01), free of any zone. */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

export type CivilDate = {
  year: number;
  /** 1-12 */
  month: number;
  /** 1-31 */
  day: number;
  /** 0-6, 0 is Sunday */
  weekday: number;
};

export const isLeapYear = (year: number): boolean =>
  (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

const MONTH_LENGTHS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export const daysInMonth = (year: number, month: number): number =>
  month === 2 && isLeapYear(year) ? 29 : MONTH_LENGTHS[month - 1];

export function civilFromEpochDay(epochDay: number): CivilDate {
  const date = new Date(epochDay * DAY_MS);
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    weekday: date.getUTCDay(),
  };
}

export function epochDayOf(year: number, month: number, day: number): number {
  // setUTCFullYear rather than Date.UTC, which maps years 0-99 onto 1900-1999.
  return Math.floor(new Date(0).setUTCFullYear(year, month - 1, day) / DAY_MS);
}
