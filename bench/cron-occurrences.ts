/**
 * How fast the cron engine answers "next occurrence" for many stored schedules, and how long a
 * schedule that never fires takes to be given up on. Prints figures; asserts nothing.
 *
 *   bun bench/cron-occurrences.ts
 */
import { compileSchedule, nextOccurrence, nextOccurrences, occurrencesBetween } from '@shared/cron';
import { compileScheduleUnchecked } from '@shared/cron/compile-schedule.ts';

const zones = ['UTC', 'America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kolkata'];
const expressions = ['*/5 * * * *', '0 9 * * MON-FRI', '30 2 * * *', '0 0 1 * *', '15 14 13 * 5', '0 0 29 2 *'];
const COUNT = 10_000;
const schedules = Array.from({ length: COUNT }, (_, i) =>
  compileSchedule({ expression: expressions[i % expressions.length]!, timezone: zones[i % zones.length]! }),
);
const after = new Date('2026-03-07T23:59:30Z');

let started = performance.now();
for (const schedule of schedules) nextOccurrence(schedule, after);
const nextMs = performance.now() - started;
console.log(`next occurrence of ${COUNT} schedules: ${nextMs.toFixed(1)} ms (${((nextMs * 1000) / COUNT).toFixed(1)} us each)`);

const never = compileScheduleUnchecked({ expression: '0 0 31 2 *', timezone: 'America/New_York' });
started = performance.now();
nextOccurrences(never, new Date('2026-01-01T00:00:00Z'), 5);
nextOccurrence(never, new Date('2026-01-01T00:00:00Z'));
occurrencesBetween(never, new Date('2026-01-01T00:00:00Z'), new Date('2126-01-01T00:00:00Z'), 5);
console.log(`a schedule that never fires (31 February), three searches: ${(performance.now() - started).toFixed(1)} ms`);
