import { describe, expect, test } from 'bun:test';
import { CronSyntaxError, parseCronExpression, type CronFields } from '@shared/cron/index.ts';

const range = (from: number, to: number, step = 1): number[] => {
  const values: number[] = [];
  for (let v = from; v <= to; v += step) values.push(v);
  return values;
};

describe('parseCronExpression accepts', () => {
  const cases: [string, Partial<CronFields>][] = [
    ['* * * * *', { minutes: range(0, 59), hours: range(0, 23), daysOfMonth: range(1, 31), months: range(1, 12), daysOfWeek: range(0, 6), dayOfMonthRestricted: false, dayOfWeekRestricted: false }],
    ['0 0 1 1 0', { minutes: [0], hours: [0], daysOfMonth: [1], months: [1], daysOfWeek: [0] }],
    ['59 23 31 12 6', { minutes: [59], hours: [23], daysOfMonth: [31], months: [12], daysOfWeek: [6] }],
    ['5-10 * * * *', { minutes: [5, 6, 7, 8, 9, 10] }],
    ['1,5,3,5 * * * *', { minutes: [1, 3, 5] }],
    ['*/15 * * * *', { minutes: [0, 15, 30, 45] }],
    ['0 1-10/3 * * *', { hours: [1, 4, 7, 10] }],
    ['0 20/2 * * *', { hours: [20, 22] }],
    ['0 0 */10 * *', { daysOfMonth: [1, 11, 21, 31], dayOfMonthRestricted: true }],
    ['0-5/2,30 * * * *', { minutes: [0, 2, 4, 30] }],
    ['*/100 * * * *', { minutes: [0] }],
    ['07 08 * * *', { minutes: [7], hours: [8] }],
    ['0 9 * JAN-MAR MON-FRI', { months: [1, 2, 3], daysOfWeek: [1, 2, 3, 4, 5], dayOfMonthRestricted: false, dayOfWeekRestricted: true }],
    ['0 9 * jan,Jul,DEC sun,Sat', { months: [1, 7, 12], daysOfWeek: [0, 6] }],
    ['0 9 * feb/3 wed', { months: [2, 5, 8, 11], daysOfWeek: [3] }],
    ['0 9 * * 7', { daysOfWeek: [0] }],
    ['0 9 * * 0,7', { daysOfWeek: [0] }],
    ['0 9 * * 5-7', { daysOfWeek: [0, 5, 6] }],
    ['0 9 * * FRI-SUN', { daysOfWeek: [0, 5, 6] }],
    ['0 9 * * 0-7', { daysOfWeek: range(0, 6) }],
    ['0 9 * * 1/2', { daysOfWeek: [1, 3, 5] }],
    ['0 9 * * */2', { daysOfWeek: [0, 2, 4, 6], dayOfWeekRestricted: true }],
    // A step from 7 is Sunday-based stepping, exactly as from 0 or SUN (it once expanded to nothing).
    ['0 9 * * 7/2', { daysOfWeek: [0, 2, 4, 6], dayOfWeekRestricted: true }],
    ['0 9 * * 7/3', { daysOfWeek: [0, 3, 6] }],
    ['0 9 * * 7/1', { daysOfWeek: range(0, 6) }],
    ['0 9 * * SUN/2', { daysOfWeek: [0, 2, 4, 6] }],
    // Issue 24: every `N/step` runs from N to Saturday and never wraps into the next week; a
    // start of 7 (Sunday) is the only one that moves (to 0). `7-7/2` is the explicit range 7-7.
    ['0 9 * * 5/3', { daysOfWeek: [5] }],
    ['0 9 * * 4/2', { daysOfWeek: [4, 6] }],
    ['0 9 * * 6/2', { daysOfWeek: [6] }],
    ['0 9 * * SAT/3', { daysOfWeek: [6] }],
    ['0 9 * * 2/1', { daysOfWeek: [2, 3, 4, 5, 6] }],
    ['0 9 * * 1/7', { daysOfWeek: [1] }],
    ['0 9 * * 5-7/2', { daysOfWeek: [0, 5] }],
    ['0 9 * * 7-7/2', { daysOfWeek: [0] }],
    ['0 9 * * 7/6', { daysOfWeek: [0, 6] }],
    ['0 9 * * 7/2,1', { daysOfWeek: [0, 1, 2, 4, 6] }],
    ['0 0 31 2 7/2', { daysOfMonth: [31], months: [2], daysOfWeek: [0, 2, 4, 6] }],
    ['0 9 13 * 5', { daysOfMonth: [13], daysOfWeek: [5], dayOfMonthRestricted: true, dayOfWeekRestricted: true }],
    ['  0\t9  *   *  *  ', { minutes: [0], hours: [9] }],
  ];
  for (const [expression, expected] of cases) {
    test(JSON.stringify(expression), () => {
      expect(parseCronExpression(expression)).toMatchObject(expected);
    });
  }
});

describe('parseCronExpression rejects', () => {
  const cases: [string, RegExp][] = [
    ['', /empty/],
    ['   ', /empty/],
    ['0 0 * * * *', /exactly 5 fields.*got 6.*seconds or year field is not supported/],
    ['0 0 0 * * * 2026', /got 7.*seconds and year fields are not supported/],
    ['0 0 * *', /exactly 5 fields.*got 4/],
    ['@daily', /shortcuts such as '@daily' are not supported/],
    ['@reboot', /'@reboot' are not supported/],
    ['@every 5m', /'@every' are not supported/],
    ['0 0 L * *', /'L' \(last day\) is not supported.*day-of-month/],
    ['0 0 * * 5L', /'L' \(last day\) is not supported.*day-of-week/],
    ['0 0 L-2 * *', /'L' \(last day\) is not supported/],
    ['0 0 LW * *', /'L' \(last day\) is not supported/],
    ['0 0 15W * *', /'W' \(nearest weekday\) is not supported/],
    ['0 0 * * 5#2', /'#' \(nth weekday of the month\) is not supported/],
    ['0 0 ? * 1', /'\?' is not supported.*use '\*'/],
    ['60 * * * *', /^minute value 60 is out of range 0-59$/],
    ['0 24 * * *', /^hour value 24 is out of range 0-23$/],
    ['0 0 0 * *', /^day-of-month value 0 is out of range 1-31$/],
    ['0 0 32 * *', /^day-of-month value 32 is out of range 1-31$/],
    ['0 0 * 13 *', /^month value 13 is out of range 1-12$/],
    ['0 0 * 0 *', /^month value 0 is out of range 1-12$/],
    ['0 0 * * 8', /^day-of-week value 8 is out of range 0-7$/],
    ['0 0-24 * * *', /hour value 24 is out of range 0-23/],
    ['99999999999999999999 * * * *', /minute value 99999999999999999999 is out of range 0-59/],
    ['1,,2 * * * *', /minute field '1,,2' has an empty list element/],
    [', * * * *', /empty list element/],
    ['10-5 * * * *', /minute range '10-5' is reversed/],
    ['0 0 * * FRI-MON', /day-of-week range 'FRI-MON' is reversed/],
    ['*/0 * * * *', /minute step 0 in '\*\/0' is not allowed/],
    ['0 0-10/0 * * *', /hour step 0/],
    ['*/x * * * *', /minute step in '\*\/x' must be a positive whole number/],
    ['*/2/3 * * * *', /more than one step/],
    ['abc * * * *', /minute value 'abc' is not valid; expected a number/],
    ['0 0 * FOO *', /month value 'FOO' is not valid; expected a number or a month name/],
    ['0 0 * * MONDAY', /day-of-week value 'MONDAY' is not valid/],
    ['-5 * * * *', /minute range '-5' is malformed/],
    ['1-2-3 * * * *', /malformed/],
    ['*-5 * * * *', /minute value '\*' is not valid/],
    ['1.5 * * * *', /minute value '1.5' is not valid/],
    ['0 MON * * *', /hour value 'MON' is not valid/],
    ['0 0 * * JAN', /day-of-week value 'JAN' is not valid/],
    ['+1 * * * *', /not valid/],
  ];

  for (const [expression, message] of cases) {
    test(JSON.stringify(expression), () => {
      let error: unknown;
      try {
        parseCronExpression(expression);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(CronSyntaxError);
      expect((error as Error).message).toMatch(message);
    });
  }

  test('long garbage is rejected quickly and quoted briefly', () => {
    const long = `${'1,'.repeat(2000)}x * * * *`;
    expect(() => parseCronExpression(long)).toThrow(CronSyntaxError);
    const junk = `${'z'.repeat(300)} * * * *`;
    expect(() => parseCronExpression(junk)).toThrow(/^minute value 'z{40}…' is not valid; expected a number$/);
  });
});
