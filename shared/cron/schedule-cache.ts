import { compileSchedule, type CompiledSchedule, type CronSchedule } from './compile-schedule.ts';

/**
 * Compiles each distinct (expression, timezone) once. Thousands of deployments share a handful
 * of expressions, so a bounded map keeps the hot path free of parsing.
 */
export function createScheduleCache(maxEntries = 10_000) {
  const cache = new Map<string, CompiledSchedule>();
  return {
    /** Throws CronSyntaxError for a schedule this runtime cannot evaluate. */
    get(schedule: CronSchedule): CompiledSchedule {
      const key = `${schedule.timezone}\u0000${schedule.expression}`;
      let compiled = cache.get(key);
      if (!compiled) {
        compiled = compileSchedule(schedule);
        if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
        cache.set(key, compiled);
      }
      return compiled;
    },
  };
}
export type ScheduleCache = ReturnType<typeof createScheduleCache>;
