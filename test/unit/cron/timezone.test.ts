import { describe, expect, test } from 'bun:test';
import { compileSchedule, isValidTimezone, validateSchedule } from '@shared/cron/index.ts';
import { checkTimezone } from '@shared/cron/timezone.ts';

describe('isValidTimezone', () => {
  const valid = [
    'America/New_York',
    'Europe/London',
    'Australia/Lord_Howe',
    'Asia/Kolkata',
    'America/Argentina/Buenos_Aires',
    'America/Port-au-Prince',
    'UTC',
    'Etc/UTC',
    'Etc/GMT+5',
    'US/Eastern',
    'EST5EDT',
    'GB',
  ];
  const invalid = [
    '',
    'america/new_york',
    'AMERICA/NEW_YORK',
    'us/eastern',
    'utc',
    'etc/utc',
    'Mars/Base',
    'Etc/Unknown',
    'UTC+1',
    '+05:00',
    '-0800',
    'Z',
    'America/New_York ',
    ' UTC',
    'America//New_York',
    '/UTC',
    'America/New_York/',
    'x'.repeat(300),
  ];
  for (const tz of valid) test(`accepts ${JSON.stringify(tz)}`, () => expect(isValidTimezone(tz)).toBe(true));
  for (const tz of invalid) test(`rejects ${JSON.stringify(tz.slice(0, 40))}`, () => expect(isValidTimezone(tz)).toBe(false));

  test('rejects non-strings without throwing', () => {
    expect(isValidTimezone(undefined as unknown as string)).toBe(false);
    expect(isValidTimezone(42 as unknown as string)).toBe(false);
  });
});

describe('checkTimezone on an engine that resolves links to their target', () => {
  // Older V8 answers resolvedOptions().timeZone with the link target, hiding the link's spelling.
  const targets: Record<string, string> = { 'us/eastern': 'America/New_York', 'america/new_york': 'America/New_York' };
  const resolveToTarget = (tz: string): string => {
    const lower = tz.toLowerCase();
    if (lower in targets) return targets[lower];
    if (lower === 'utc' || lower === 'etc/utc') return 'UTC';
    throw new RangeError(`Invalid time zone specified: ${tz}`);
  };
  test.each([
    ['US/Eastern', true],
    ['us/eastern', false],
    ['America/New_York', true],
    ['america/new_york', false],
    ['Etc/UTC', true],
    ['etc/utc', false],
    ['utc', false],
    ['Mars/Base', false],
  ])('%s -> %p', (tz, expected) => {
    expect(checkTimezone(tz, resolveToTarget)).toBe(expected);
  });
});

describe('compileSchedule timezone errors', () => {
  test('unknown zone', () => {
    expect(() => compileSchedule({ expression: '0 9 * * *', timezone: 'Mars/Base' })).toThrow(/^unknown timezone 'Mars\/Base'/);
  });
  test('wrong case suggests the database spelling', () => {
    expect(validateSchedule({ expression: '0 9 * * *', timezone: 'america/new_york' })).toMatch(
      /unknown timezone 'america\/new_york' \(did you mean 'America\/New_York'\?\)/,
    );
  });
  test('empty zone', () => {
    expect(validateSchedule({ expression: '0 9 * * *', timezone: '' })).toMatch(/^unknown timezone ''/);
  });
  test('valid schedule validates', () => {
    expect(validateSchedule({ expression: '0 9 * * *', timezone: 'US/Eastern' })).toBeNull();
  });
});
