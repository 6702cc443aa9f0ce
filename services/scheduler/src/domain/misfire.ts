import { occurrencesBetween, type CompiledSchedule } from '@shared/cron';
import { nextFireAfter, withJitter, type PlannedFire } from './next-fire';

/** Counting missed occurrences stops here; a week-long outage of a minutely schedule is "many". */
export const MISFIRE_COUNT_CAP = 10_000;
const CHUNK = 1_000;

export interface DueFireInput {
  schedule: CompiledSchedule;
  /** The occurrence the row was waiting for. */
  listedOccurrence: Date;
  jitterMs: number;
  now: Date;
  misfireWindowMs: number;
}

export interface FireDecision {
  /** The occurrence to fire now; null when none is due or every missed one is too old. */
  fire: Date | null;
  /** Due occurrences that will never fire (older ones after downtime), capped at MISFIRE_COUNT_CAP. */
  skippedMisfires: number;
  /** What the row waits for once this decision is carried out; null: the schedule never fires again. */
  next: PlannedFire | null;
}

/**
 * What a worker does with a due row. An occurrence is due once its fire time (occurrence +
 * jitter) has passed. When several are due (the scheduler was down or behind), only the most
 * recent fires, and only if its fire time is at most `misfireWindowMs` ago; the rest are
 * skipped and counted, never replayed in bulk. Jitter is fixed per deployment, so comparing
 * occurrences with `now - jitter` is comparing fire times with `now`.
 */
export function decideDueFire(input: DueFireInput): FireDecision {
  const { schedule, listedOccurrence, jitterMs } = input;
  const dueUntil = input.now.getTime() - jitterMs;
  if (listedOccurrence.getTime() > dueUntil) {
    return { fire: null, skippedMisfires: 0, next: withJitter(listedOccurrence, jitterMs) };
  }
  const windowStart = dueUntil - input.misfireWindowMs;
  let skipped = 0;
  let fire: Date | null = null;
  let cursor: Date;
  if (listedOccurrence.getTime() < windowStart) {
    // Too old to fire, like every other occurrence before the window.
    skipped = 1 + countOccurrences(schedule, listedOccurrence, new Date(windowStart - 1), MISFIRE_COUNT_CAP - 1);
    cursor = new Date(windowStart - 1);
  } else {
    fire = listedOccurrence;
    cursor = listedOccurrence;
  }
  // Within the window: the latest due occurrence fires, the earlier ones are skipped.
  for (;;) {
    const chunk = occurrencesBetween(schedule, cursor, new Date(dueUntil), CHUNK);
    if (chunk.length === 0) break;
    skipped += chunk.length - (fire ? 0 : 1);
    fire = chunk[chunk.length - 1]!;
    cursor = fire;
    if (chunk.length < CHUNK) break;
  }
  return {
    fire,
    skippedMisfires: Math.min(skipped, MISFIRE_COUNT_CAP),
    next: nextFireAfter(schedule, jitterMs, new Date(dueUntil)),
  };
}

function countOccurrences(schedule: CompiledSchedule, fromExclusive: Date, toInclusive: Date, cap: number): number {
  let count = 0;
  let cursor = fromExclusive;
  while (count < cap) {
    const chunk = occurrencesBetween(schedule, cursor, toInclusive, Math.min(CHUNK, cap - count));
    count += chunk.length;
    if (chunk.length === 0 || chunk.length < CHUNK) break;
    cursor = chunk[chunk.length - 1]!;
  }
  return count;
}
