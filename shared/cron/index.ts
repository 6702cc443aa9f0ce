export { CronSyntaxError } from './cron-syntax-error.ts';
export { parseCronExpression, type CronFields } from './parse-expression.ts';
export { isValidTimezone } from './timezone.ts';
export { compileSchedule, validateSchedule, type CompiledSchedule, type CronSchedule } from './compile-schedule.ts';
export { nextOccurrence, nextOccurrences, occurrencesBetween } from './occurrences.ts';
export { scheduleJitterMs } from './jitter.ts';
export { createScheduleCache, type ScheduleCache } from './schedule-cache.ts';
