import { countDueSchedules } from '../db/count-due-schedules';
import type { SchedulerDeps } from '../deps';

/** Counts the rows due now into the `scheduler_due_backlog` gauge, and returns the count. */
export const measureDueBacklog = (deps: SchedulerDeps) => async (): Promise<number> => {
  const n = await countDueSchedules(deps.db, deps.clock.now());
  deps.metrics.setDueBacklog(n);
  return n;
};
