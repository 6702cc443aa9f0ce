import { describe, expect, test } from 'bun:test';
import {
  compileSchedule,
  nextOccurrence,
  nextOccurrences,
  occurrencesBetween,
  validateSchedule,
  type CompiledSchedule,
} from '@shared/cron/index.ts';
import { compileScheduleUnchecked } from '@shared/cron/compile-schedule.ts';
import { seededRandom } from '../../support/seeded-random';
import { oracleOccurrences } from '../../support/cron-oracle.ts';

const DAY = 86_400_000;
const iso = (dates: Date[]): string[] => dates.map((d) => d.toISOString());
const compile = (expression: string, timezone = 'UTC'): CompiledSchedule => compileSchedule({ expression, timezone });

/** The next occurrences of `schedule` after `from`: exactly `expected`, as many as it lists. */
function expectNext(schedule: CompiledSchedule, from: string, expected: string[]): void {
  expect(iso(nextOccurrences(schedule, new Date(from), expected.length))).toEqual(expected);
}

/** The engine must agree with the brute-force oracle through every entry point. */
function expectAgreesWithOracle(schedule: CompiledSchedule, from: Date, to: Date): void {
  const expected = iso(oracleOccurrences(schedule.fields, schedule.timezone, from, to));

  expect(iso(occurrencesBetween(schedule, from, to, 100_000))).toEqual(expected);
  expect(iso(nextOccurrences(schedule, from, expected.length))).toEqual(expected);

  // Stepping one occurrence at a time, and probing just before each one, lands on each in turn.
  let cursor = from;
  for (const instant of expected) {
    const next = nextOccurrence(schedule, cursor);
    expect(next?.toISOString()).toBe(instant);
    expect(nextOccurrence(schedule, new Date(Date.parse(instant) - 1))?.toISOString()).toBe(instant);
    cursor = next ?? cursor;
  }
}

describe('engine agrees with the brute-force oracle around DST transitions', () => {
  const transitions: [string, string][] = [
    ['America/New_York', '2026-03-08'], // spring forward 02:00 -> 03:00
    ['America/New_York', '2026-11-01'], // fall back 02:00 -> 01:00
    ['Europe/London', '2026-03-29'], // 01:00 -> 02:00
    ['Europe/London', '2026-10-25'], // 02:00 -> 01:00
    ['Australia/Lord_Howe', '2026-04-05'], // fall back 02:00 -> 01:30
    ['Australia/Lord_Howe', '2026-10-04'], // spring forward 02:00 -> 02:30
    ['America/Santiago', '2026-04-05'], // transitions at local midnight
    ['America/Santiago', '2026-09-06'],
    ['Asia/Beirut', '2026-10-25'], // falls back from 00:00 to 23:00 of the previous day
  ];
  const expressions = [
    '30 2 * * *',
    '30 1 * * *',
    '15 2 * * *',
    '45 1 * * *',
    '*/15 * * * *',
    '0 * * * *',
    '0,30 0,23 * * *',
    '59 23 * * *',
  ];
  for (const [timezone, date] of transitions) {
    const from = new Date(Date.parse(`${date}T00:00:00Z`) - 2 * DAY);
    const to = new Date(Date.parse(`${date}T00:00:00Z`) + 2 * DAY);
    for (const expression of expressions) {
      test(`${timezone} ${date} ${expression}`, () => {
        expectAgreesWithOracle(compile(expression, timezone), from, to);
      });
    }
  }

  test('dom/dow OR over a month', () => {
    expectAgreesWithOracle(
      compile('0 9 13 * 5', 'Europe/Paris'),
      new Date('2026-02-01T00:00:00Z'),
      new Date('2026-03-01T00:00:00Z'),
    );
  });

  test('Feb 29 in a zone, across the leap day', () => {
    expectAgreesWithOracle(
      compile('0 0,12 29 2 *', 'Pacific/Kiritimati'),
      new Date('2028-02-27T00:00:00Z'),
      new Date('2028-03-02T00:00:00Z'),
    );
  });
});

describe('engine agrees with the oracle on seeded random schedules near transitions', () => {
  const random = seededRandom(20260308);
  const pick = <T,>(items: T[]): T => items[Math.floor(random() * items.length)];
  const transitions: [string, string][] = [
    ['America/New_York', '2026-03-08T07:00:00Z'],
    ['America/New_York', '2026-11-01T06:00:00Z'],
    ['Europe/London', '2026-10-25T01:00:00Z'],
    ['Australia/Lord_Howe', '2026-04-04T15:00:00Z'],
    ['Australia/Lord_Howe', '2026-10-03T15:30:00Z'],
    ['America/Santiago', '2026-04-05T03:00:00Z'],
    ['America/Havana', '2026-03-08T05:00:00Z'],
    ['Asia/Beirut', '2026-10-24T21:00:00Z'],
    ['Pacific/Chatham', '2026-04-04T14:00:00Z'],
  ];
  const parts = {
    minute: ['*', '0', '30', '15,45', '*/7', '0-10/5', '59', '1/20'],
    hour: ['*', '0', '1', '2', '23', '0-3', '1/6', '22-23'],
    dayOfMonth: ['*', '*', '*', '5,25', '1-7', '13', '*/2'],
    month: ['*', '*', '*', 'MAR-NOV', '3,4,9,10,11'],
    dayOfWeek: ['*', '*', '*', '0', 'SAT,SUN', '1-5', '7'],
  };
  for (let i = 0; i < 40; i++) {
    const [timezone, transition] = pick(transitions);
    const expression = [parts.minute, parts.hour, parts.dayOfMonth, parts.month, parts.dayOfWeek].map(pick).join(' ');
    const from = new Date(Date.parse(transition) - Math.floor(random() * 2 * DAY));
    const to = new Date(from.getTime() + 2 * DAY);
    test(`${timezone} ${from.toISOString()} ${expression}`, () => {
      expectAgreesWithOracle(compile(expression, timezone), from, to);
    });
  }
});

/**
 * A schedule and what is known to come after given instants: `next` the following occurrences
 * (as many as listed), `first` only the very next one.
 */
interface KnownAnswer {
  name: string;
  expression: string;
  timezone?: string;
  next: Array<[after: string, expected: string[]]>;
  first?: Array<[after: string, expected: string]>;
}

function knownAnswers(rows: KnownAnswer[]): void {
  for (const { name, expression, timezone, next, first = [] } of rows) {
    test(name, () => {
      const schedule = compile(expression, timezone);
      for (const [after, expected] of next) expectNext(schedule, after, expected);
      for (const [after, expected] of first) expect(nextOccurrence(schedule, new Date(after))?.toISOString()).toBe(expected);
    });
  }
}

describe('literal wall-clock semantics', () => {
  knownAnswers([
    {
      name: 'a local time skipped by spring-forward does not fire that day',
      expression: '30 2 * * *',
      timezone: 'America/New_York',
      next: [['2026-03-07T12:00:00Z', ['2026-03-09T06:30:00.000Z', '2026-03-10T06:30:00.000Z']]],
    },
    {
      name: 'a local time repeated by fall-back fires twice',
      expression: '30 1 * * *',
      timezone: 'America/New_York',
      next: [['2026-10-31T12:00:00Z', ['2026-11-01T05:30:00.000Z', '2026-11-01T06:30:00.000Z', '2026-11-02T06:30:00.000Z']]],
      // Between the two fires, the second is still ahead.
      first: [['2026-11-01T05:30:00Z', '2026-11-01T06:30:00.000Z']],
    },
    {
      name: 'Lord Howe half-hour shift: 02:15 skipped in spring',
      expression: '15 2 * * *',
      timezone: 'Australia/Lord_Howe',
      next: [
        [
          '2026-10-03T00:00:00Z',
          [
            '2026-10-04T15:15:00.000Z', // Oct 5, 02:15 +11:00; Oct 4 has no 02:15
            '2026-10-05T15:15:00.000Z',
          ],
        ],
      ],
    },
    {
      name: 'Lord Howe half-hour shift: 01:45 twice in autumn',
      expression: '45 1 * * *',
      timezone: 'Australia/Lord_Howe',
      next: [
        [
          '2026-04-04T00:00:00Z',
          [
            '2026-04-04T14:45:00.000Z', // Apr 5, 01:45 +11:00
            '2026-04-04T15:15:00.000Z', // Apr 5, 01:45 +10:30
            '2026-04-05T15:15:00.000Z',
          ],
        ],
      ],
    },
  ]);
});

describe('calendar rules', () => {
  knownAnswers([
    {
      name: 'Feb 29 fires only in leap years',
      expression: '0 12 29 2 *',
      next: [['2026-01-01T00:00:00Z', ['2028-02-29T12:00:00.000Z', '2032-02-29T12:00:00.000Z', '2036-02-29T12:00:00.000Z']]],
      // 2100 is not a leap year: the longest possible gap, eight years.
      first: [['2096-03-01T00:00:00Z', '2104-02-29T12:00:00.000Z']],
    },
    {
      name: 'day-of-month and day-of-week are ORed when both are restricted',
      expression: '0 9 13 * 5',
      next: [
        [
          '2026-02-01T00:00:00Z',
          [
            '2026-02-06T09:00:00.000Z', // Fri
            '2026-02-13T09:00:00.000Z', // Fri 13th
            '2026-02-20T09:00:00.000Z',
            '2026-02-27T09:00:00.000Z',
            '2026-03-06T09:00:00.000Z',
            '2026-03-13T09:00:00.000Z',
          ],
        ],
        [
          '2026-04-01T00:00:00Z',
          [
            '2026-04-03T09:00:00.000Z', // Fri
            '2026-04-10T09:00:00.000Z', // Fri
            '2026-04-13T09:00:00.000Z', // Mon 13th
          ],
        ],
      ],
    },
    {
      name: 'only the restricted day-of-month applies when day-of-week is *',
      expression: '0 9 13 * *',
      next: [['2026-02-01T00:00:00Z', ['2026-02-13T09:00:00.000Z', '2026-03-13T09:00:00.000Z']]],
    },
    {
      name: 'only the restricted day-of-week applies when day-of-month is *',
      expression: '0 9 * * 5',
      next: [['2026-02-01T00:00:00Z', ['2026-02-06T09:00:00.000Z', '2026-02-13T09:00:00.000Z']]],
    },
    {
      name: 'month and day names',
      expression: '0 9 * JAN-MAR MON-FRI',
      timezone: 'Europe/Berlin',
      next: [
        [
          '2026-03-28T00:00:00Z',
          [
            '2026-03-30T07:00:00.000Z', // Mon, CEST
            '2026-03-31T07:00:00.000Z', // Tue
            '2027-01-01T08:00:00.000Z', // Fri, CET
          ],
        ],
      ],
    },
    {
      name: 'a yearly schedule',
      expression: '0 0 1 1 *',
      timezone: 'Asia/Tokyo',
      next: [
        [
          '2026-06-01T00:00:00Z',
          ['2026-12-31T15:00:00.000Z', '2027-12-31T15:00:00.000Z', '2028-12-31T15:00:00.000Z', '2029-12-31T15:00:00.000Z', '2030-12-31T15:00:00.000Z'],
        ],
      ],
    },
  ]);

  test('7 is Sunday', () => {
    const after = new Date('2026-01-01T00:00:00Z');
    const sundays = iso(nextOccurrences(compile('0 9 * * 7'), after, 3));
    expect(sundays).toEqual(['2026-01-04T09:00:00.000Z', '2026-01-11T09:00:00.000Z', '2026-01-18T09:00:00.000Z']);
    expect(iso(nextOccurrences(compile('0 9 * * 0'), after, 3))).toEqual(sundays);
    expect(iso(nextOccurrences(compile('0 9 * * SUN'), after, 3))).toEqual(sundays);
  });

  test('a step from 7 (Sunday) fires on Sun, Tue, Thu and Sat', () => {
    const schedule = compile('0 0 * * 7/2', 'Europe/Paris');
    expectNext(schedule, '2026-01-01T00:00:00Z', [
      '2026-01-02T23:00:00.000Z', // Sat 3 Jan, 00:00 CET
      '2026-01-03T23:00:00.000Z', // Sun 4 Jan
      '2026-01-05T23:00:00.000Z', // Tue 6 Jan
      '2026-01-07T23:00:00.000Z', // Thu 8 Jan
    ]);
    expectAgreesWithOracle(schedule, new Date('2026-03-20T00:00:00Z'), new Date('2026-04-05T00:00:00Z'));
  });

  test('a step from 7 ORed with an impossible day of month fires on those weekdays', () => {
    expectAgreesWithOracle(
      compile('0 0 31 2 7/2', 'America/New_York'),
      new Date('2026-01-25T00:00:00Z'),
      new Date('2026-03-05T00:00:00Z'),
    );
    expect(nextOccurrence(compile('0 0 31 2 7/2'), new Date('2026-01-01T00:00:00Z'))?.toISOString()).toBe(
      '2026-02-01T00:00:00.000Z', // Sunday 1 Feb
    );
  });
});

describe('never-firing expressions', () => {
  test.each(['0 0 31 2 *', '0 0 30 2 *', '0 0 31 4,6,9,11 *', '0 0 30,31 FEB *'])('%s is rejected', (expression) => {
    expect(() => compile(expression)).toThrow(/^expression never fires/);
    expect(validateSchedule({ expression, timezone: 'UTC' })).toMatch(/^expression never fires/);
  });

  test('ORed with a weekday it fires', () => {
    expect(validateSchedule({ expression: '0 0 31 2 1', timezone: 'UTC' })).toBeNull();
    expect(validateSchedule({ expression: '0 0 31 2 7/2', timezone: 'UTC' })).toBeNull();
  });

  test('every accepted expression has a next occurrence', () => {
    for (const expression of ['0 0 * * 7/2', '0 0 31 2 7/2', '0 0 * * 7/7', '0 0 29 2 7/2', '0 0 1 * 7/2']) {
      expect(nextOccurrence(compile(expression), new Date('2026-01-01T00:00:00Z'))).not.toBeNull();
    }
  });

  test('the search still terminates with no results if handed one', () => {
    const schedule = compileScheduleUnchecked({ expression: '0 0 31 2 *', timezone: 'America/New_York' });
    // Terminating is the check (a search that did not would time the test out); how fast it is,
    // is bench/cron-occurrences.ts's figure, not an assertion.
    expect(nextOccurrences(schedule, new Date('2026-01-01T00:00:00Z'), 5)).toEqual([]);
    expect(nextOccurrence(schedule, new Date('2026-01-01T00:00:00Z'))).toBeNull();
    expect(occurrencesBetween(schedule, new Date('2026-01-01T00:00:00Z'), new Date('2126-01-01T00:00:00Z'), 5)).toEqual([]);
  });
});

describe('bounds and arguments', () => {
  const hourly = compile('0 * * * *');

  test('strictly after, whole minutes, even when after has seconds', () => {
    expect(nextOccurrence(hourly, new Date('2026-05-05T09:00:00Z'))?.toISOString()).toBe('2026-05-05T10:00:00.000Z');
    expect(nextOccurrence(hourly, new Date('2026-05-05T08:59:59.999Z'))?.toISOString()).toBe('2026-05-05T09:00:00.000Z');
    expect(nextOccurrence(hourly, new Date('2026-05-05T09:00:00.001Z'))?.toISOString()).toBe('2026-05-05T10:00:00.000Z');
  });

  test('occurrencesBetween is (from, to] and honours the limit', () => {
    const from = new Date('2026-05-05T09:00:00Z');
    const to = new Date('2026-05-05T12:00:00Z');
    expect(iso(occurrencesBetween(hourly, from, to, 10))).toEqual([
      '2026-05-05T10:00:00.000Z',
      '2026-05-05T11:00:00.000Z',
      '2026-05-05T12:00:00.000Z',
    ]);
    expect(occurrencesBetween(hourly, from, to, 2)).toHaveLength(2);
    expect(occurrencesBetween(hourly, to, from, 10)).toEqual([]);
    expect(occurrencesBetween(hourly, from, from, 10)).toEqual([]);
  });

  test('count below 1 yields nothing; invalid dates throw', () => {
    expect(nextOccurrences(hourly, new Date('2026-05-05T09:00:00Z'), 0)).toEqual([]);
    expect(() => nextOccurrence(hourly, new Date('nope'))).toThrow(RangeError);
  });
});

test('every schedule of a varied set has a next occurrence (speed: bench/cron-occurrences.ts)', () => {
  const after = new Date('2026-03-07T23:59:30Z');
  for (const [expression, zone] of VARIED_SCHEDULES) expect(nextOccurrence(compile(expression, zone), after)).not.toBeNull();
});

/** Expressions and zones of every kind (steps, ranges, weekdays, leap day, half-hour and DST zones). */
const VARIED_SCHEDULES = ['UTC', 'America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kolkata'].flatMap((zone) =>
  ['*/5 * * * *', '0 9 * * MON-FRI', '30 2 * * *', '0 0 1 * *', '15 14 13 * 5', '0 0 29 2 *'].map((expression) => [expression, zone] as const),
);
