import type { SchedulerWorker, WorkerStep } from './scheduler-worker';

/**
 * Crashes workers at planned points, counted in steps of their work (never by a timer), so a
 * seeded plan replays the same kind of crash at the same point of a batch. A crash is armed per
 * slot (a worker and its restarts) and fires once, on the n-th matching step from arming.
 *
 * Optionally at most `limit.kills` crashes in any `limit.steps` consecutive steps of the test's
 * clock (see nextStep): a batch a crash leaves claimed waits out its lease, and a test that
 * expects every occurrence to run must not let a streak of crashes hold one batch until its
 * next occurrence is due (the misfire rule then rightly skips the older one).
 */
export class CrashPlan {
  kills = 0;
  /** Crashes the limit refused to arm. */
  refused = 0;
  private readonly armed = new Map<number, { step: WorkerStep; left: number }>();
  private step = 0;
  /** The step (of nextStep) in which each kill happened. */
  private readonly killSteps: number[] = [];

  constructor(private readonly limit?: { kills: number; steps: number }) {}

  /** Arms a crash for a slot's worker, unless the limit forbids another one now; says which. */
  arm(slot: number, step: WorkerStep, n: number): boolean {
    if (this.limit) {
      const recent = this.killSteps.filter((s) => s > this.step - this.limit!.steps).length;
      if (recent >= this.limit.kills) {
        this.refused += 1;
        return false;
      }
    }
    this.armed.set(slot, { step, left: n });
    return true;
  }

  /** The test's clock moved on: a crash armed before that its worker did not reach is dropped. */
  nextStep(): void {
    this.step += 1;
    this.armed.clear();
  }

  /** The worker option of one slot's worker. */
  onStep(slot: number): (step: WorkerStep, worker: SchedulerWorker) => void {
    return (step, worker) => {
      const crash = this.armed.get(slot);
      if (!crash || crash.step !== step || worker.isKilled()) return;
      if (--crash.left > 0) return;
      this.armed.delete(slot);
      this.kills += 1;
      this.killSteps.push(this.step);
      worker.kill();
    };
  }
}
