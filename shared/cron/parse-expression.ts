import { CronSyntaxError } from './cron-syntax-error.ts';

/**
 * The five standard cron fields, expanded to sorted, de-duplicated value lists.
 *
 * Day-of-month and day-of-week follow classic cron: when both are restricted, a day matches
 * if EITHER matches (`0 9 13 * 5` fires on every 13th and on every Friday); when one of them
 * is `*`, only the other one restricts. "Restricted" means the field is anything but a bare
 * `*`, so `*\/2` or `1-31` count as restricted.
 */
export type CronFields = {
  minutes: number[];
  hours: number[];
  daysOfMonth: number[];
  months: number[];
  /** 0-6, 0 is Sunday (an input 7 is folded onto 0). */
  daysOfWeek: number[];
  dayOfMonthRestricted: boolean;
  dayOfWeekRestricted: boolean;
};

type FieldSpec = {
  name: string;
  min: number;
  max: number;
  /**
   * Upper bound for `*` and `a/n`. Differs from `max` only for day-of-week, where 7 is merely
   * an alias for Sunday: `1/2` should mean Mon, Wed, Fri rather than also wrapping to Sunday.
   */
  openMax: number;
  names?: Record<string, number>;
};

const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

const nameTable = (names: string[], first: number): Record<string, number> =>
  Object.fromEntries(names.map((name, i) => [name, first + i]));

const MINUTE: FieldSpec = { name: 'minute', min: 0, max: 59, openMax: 59 };
const HOUR: FieldSpec = { name: 'hour', min: 0, max: 23, openMax: 23 };
const DAY_OF_MONTH: FieldSpec = { name: 'day-of-month', min: 1, max: 31, openMax: 31 };
const MONTH: FieldSpec = { name: 'month', min: 1, max: 12, openMax: 12, names: nameTable(MONTH_NAMES, 1) };
const DAY_OF_WEEK: FieldSpec = { name: 'day-of-week', min: 0, max: 7, openMax: 6, names: nameTable(DAY_NAMES, 0) };

const FIELD_ORDER = 'minute hour day-of-month month day-of-week';

export function parseCronExpression(expression: string): CronFields {
  const trimmed = expression.trim();
  if (trimmed === '') throw new CronSyntaxError('cron expression is empty');
  if (trimmed.startsWith('@')) {
    throw new CronSyntaxError(
      `shortcuts such as ${quote(trimmed.split(/\s/)[0])} are not supported; write the 5 fields (${FIELD_ORDER}) instead`,
    );
  }
  const parts = trimmed.split(/\s+/);
  if (parts.length !== 5) throw new CronSyntaxError(fieldCountMessage(parts.length));

  const [minute, hour, dayOfMonth, month, dayOfWeek] = parts;
  return {
    minutes: parseField(minute, MINUTE),
    hours: parseField(hour, HOUR),
    daysOfMonth: parseField(dayOfMonth, DAY_OF_MONTH),
    months: parseField(month, MONTH),
    daysOfWeek: [...new Set(parseField(dayOfWeek, DAY_OF_WEEK).map((d) => d % 7))].sort(byNumber),
    dayOfMonthRestricted: dayOfMonth !== '*',
    dayOfWeekRestricted: dayOfWeek !== '*',
  };
}

function fieldCountMessage(count: number): string {
  const base = `cron expression must have exactly 5 fields (${FIELD_ORDER}), got ${count}`;
  if (count === 6) return `${base}; a seconds or year field is not supported`;
  if (count === 7) return `${base}; seconds and year fields are not supported`;
  return base;
}

function parseField(text: string, spec: FieldSpec): number[] {
  const values = new Set<number>();
  for (const item of text.split(',')) {
    if (item === '') throw new CronSyntaxError(`${spec.name} field ${quote(text)} has an empty list element`);
    for (const value of parseItem(item, spec)) values.add(value);
  }
  return [...values].sort(byNumber);
}

/** One list element: `*`, `v`, `a-b`, each optionally followed by `/step`. */
function parseItem(item: string, spec: FieldSpec): number[] {
  rejectUnsupportedDialect(item, spec);
  const slashParts = item.split('/');
  if (slashParts.length > 2) throw new CronSyntaxError(`${spec.name} field element ${quote(item)} has more than one step`);
  const [range, stepText] = slashParts;
  const step = stepText === undefined ? 1 : parseStep(stepText, item, spec);

  let low: number;
  let high: number;
  if (range === '*') {
    low = spec.min;
    high = spec.openMax;
  } else if (range.includes('-')) {
    const bounds = range.split('-');
    if (bounds.length !== 2 || bounds[0] === '' || bounds[1] === '') {
      throw new CronSyntaxError(`${spec.name} range ${quote(range)} is malformed; expected a-b`);
    }
    low = parseValue(bounds[0], spec);
    high = parseValue(bounds[1], spec);
    // `FRI-SUN` reads naturally as Friday to Sunday, so a named Sunday closing a range is 7.
    if (spec === DAY_OF_WEEK && high === 0 && low > 0 && bounds[1].toUpperCase() === 'SUN') high = 7;
    if (low > high) throw new CronSyntaxError(`${spec.name} range ${quote(range)} is reversed; write the smaller value first`);
  } else {
    low = parseValue(range, spec);
    // A bare value with a step (`5/15`) runs from that value to the top of the field. Day-of-week
    // 7 is Sunday, so `7/2` steps from Sunday like `0/2` and `SUN/2` (Sun, Tue, Thu, Sat); left
    // at 7 it would start above the field's top (6) and select nothing.
    if (stepText !== undefined && spec === DAY_OF_WEEK && low === 7) low = 0;
    high = stepText === undefined ? low : spec.openMax;
  }

  const values: number[] = [];
  for (let v = low; v <= high; v += step) values.push(v);
  // An element that selects nothing would make a restricted field match no day at all: a
  // schedule that is accepted and silently never fires. No element can, and none ever may.
  if (values.length === 0) throw new CronSyntaxError(`${spec.name} field element ${quote(item)} selects no value`);
  return values;
}

function parseStep(text: string, item: string, spec: FieldSpec): number {
  if (!/^\d+$/.test(text)) throw new CronSyntaxError(`${spec.name} step in ${quote(item)} must be a positive whole number`);
  const step = Number(text);
  if (step === 0) throw new CronSyntaxError(`${spec.name} step 0 in ${quote(item)} is not allowed; a step must be at least 1`);
  return step;
}

function parseValue(token: string, spec: FieldSpec): number {
  if (/^\d+$/.test(token)) {
    const value = Number(token);
    if (value < spec.min || value > spec.max) {
      throw new CronSyntaxError(`${spec.name} value ${token} is out of range ${spec.min}-${spec.max}`);
    }
    return value;
  }
  const named = spec.names?.[token.toUpperCase()];
  if (named !== undefined) return named;
  const expected = spec === MONTH ? 'a number or a month name (JAN-DEC)' : spec === DAY_OF_WEEK ? 'a number or a day name (SUN-SAT)' : 'a number';
  throw new CronSyntaxError(`${spec.name} value ${quote(token)} is not valid; expected ${expected}`);
}

/**
 * Quartz and some cron dialects accept these; we do not, and a precise message beats
 * "not a number". Checked on whole list elements so month/day names like JUL and WED,
 * which contain L and W, are not mistaken for them.
 */
function rejectUnsupportedDialect(item: string, spec: FieldSpec): void {
  if (item.includes('#')) {
    throw new CronSyntaxError(`'#' (nth weekday of the month) is not supported, found in ${spec.name} field ${quote(item)}`);
  }
  if (item.includes('?')) {
    throw new CronSyntaxError(`'?' is not supported, found in ${spec.name} field; use '*' instead`);
  }
  for (const token of item.split(/[-/]/)) {
    if (spec.names?.[token.toUpperCase()] !== undefined) continue;
    if (/^(\d*|[a-z]{3})L$|^L(W)?$/i.test(token)) {
      throw new CronSyntaxError(`'L' (last day) is not supported, found in ${spec.name} field ${quote(item)}`);
    }
    if (/^\d*W$/i.test(token)) {
      throw new CronSyntaxError(`'W' (nearest weekday) is not supported, found in ${spec.name} field ${quote(item)}`);
    }
  }
}

const byNumber = (a: number, b: number): number => a - b;

/** Echoes user input in messages, shortened so a 256-character expression stays readable. */
const quote = (text: string): string => `'${text.length > 40 ? `${text.slice(0, 40)}…` : text}'`;
