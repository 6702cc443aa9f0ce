import { nextOccurrence, type CompiledSchedule } from '@shared/cron';

/** An occurrence as listed (no jitter) and the instant it is due: occurrence + jitter. */
export interface PlannedFire {
  occurrence: Date;
  fireAt: Date;
}

export const withJitter = (occurrence: Date, jitterMs: number): PlannedFire => ({
  occurrence,
  fireAt: new Date(occurrence.getTime() + jitterMs),
});

/** The first occurrence strictly after `after`, or null when the schedule never fires again. */
export function nextFireAfter(schedule: CompiledSchedule, jitterMs: number, after: Date): PlannedFire | null {
  const occurrence = nextOccurrence(schedule, after);
  return occurrence ? withJitter(occurrence, jitterMs) : null;
}
