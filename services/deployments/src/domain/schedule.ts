import { compileSchedule, createScheduleCache, CronSyntaxError, isValidTimezone, nextOccurrence, nextOccurrences, type CompiledSchedule } from '@shared/cron';
import { invalidRequest } from '@shared/errors/api-error';
import type { ScheduleParams } from '@shared/schema/deployment';
import type { DeploymentRow } from '../db/schema';

/** A stored schedule: a cron expression and the zone it reads in. */
export interface StoredSchedule {
  expression: string;
  timezone: string;
}

/** The schedule of a stored deployment; null when it runs only manually. */
export function scheduleOf(row: Pick<DeploymentRow, 'scheduleExpression' | 'scheduleTimezone'>): StoredSchedule | null {
  return row.scheduleExpression !== null && row.scheduleTimezone !== null
    ? { expression: row.scheduleExpression, timezone: row.scheduleTimezone }
    : null;
}

export const UPCOMING_RUNS = 5;

/** Compiles a requested schedule or throws a 400 naming the field that is wrong and why. */
export function compileRequestedSchedule(schedule: ScheduleParams): CompiledSchedule {
  try {
    return compileSchedule({ expression: schedule.expression, timezone: schedule.timezone });
  } catch (err) {
    if (!(err instanceof CronSyntaxError)) throw err;
    // The cron engine checks the expression first; a valid expression with a bad zone is a zone error.
    const field = isValidTimezone(schedule.timezone) ? 'expression' : 'timezone';
    throw invalidRequest(`schedule.${field}: ${err.message}`);
  }
}

/**
 * Compiled schedules of stored deployments, by expression and zone: a list page of 100
 * deployments usually shares a handful of schedules.
 */
const schedules = createScheduleCache(2_000);

/**
 * The next occurrences as the API lists them: exact wall-clock matches without jitter, strictly
 * after `now`; none once the deployment is archived. Paused deployments still list theirs.
 */
export function upcomingRuns(schedule: StoredSchedule, now: Date, archived: boolean): string[] {
  if (archived) return [];
  return nextOccurrences(schedules.get(schedule), now, UPCOMING_RUNS).map((d) => d.toISOString());
}

/** The first occurrence strictly after `after`, or null when the schedule has none. */
export function nextOccurrenceAfter(schedule: StoredSchedule, after: Date): Date | null {
  return nextOccurrence(schedules.get(schedule), after);
}
