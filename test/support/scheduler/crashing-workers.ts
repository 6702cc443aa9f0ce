import type { CrashPlan } from './crash-plan';
import type { SchedulerHarness } from './scheduler-harness';
import type { SchedulerWorker, WorkerStep } from './scheduler-worker';

/**
 * The workers of an exactly-once test: one live worker per slot, crashing where `crashes` plans
 * for its slot, and replaced by a fresh one under a new name when it is gone. Every worker ever
 * started stays in `started`, killed ones included, so the test can read all their metrics.
 */
export class CrashingWorkers {
  /** The live worker of each slot. */
  readonly slots: SchedulerWorker[] = [];
  readonly started: SchedulerWorker[] = [];
  private restarts = 0;

  private constructor(
    private readonly harness: SchedulerHarness,
    private readonly crashes: CrashPlan,
    /** Sees every step of every worker before the crash plan does. */
    private readonly observe: (step: WorkerStep) => void,
  ) {}

  static async start(harness: SchedulerHarness, count: number, crashes: CrashPlan, observe: (step: WorkerStep) => void = () => {}): Promise<CrashingWorkers> {
    const workers = new CrashingWorkers(harness, crashes, observe);
    for (let slot = 0; slot < count; slot++) workers.slots.push(await workers.fresh(slot));
    return workers;
  }

  /** Rounds of every live worker, side by side, until none finds anything claimable. */
  async drain(): Promise<void> {
    await Promise.all(this.slots.map((w) => this.harness.drain(w)));
  }

  /** A fresh worker in place of a killed one. */
  async replace(slot: number): Promise<void> {
    this.slots[slot] = await this.fresh(slot);
  }

  /** A graceful restart: the slot's worker closes, and a fresh one takes its place. */
  async restart(slot: number): Promise<void> {
    await this.slots[slot]!.close();
    await this.replace(slot);
  }

  private async fresh(slot: number): Promise<SchedulerWorker> {
    const crash = this.crashes.onStep(slot);
    const worker = await this.harness.startWorker(`w${slot}-${this.restarts++}`, {
      poolSize: 2,
      onStep: (step, w) => {
        this.observe(step);
        crash(step, w);
      },
    });
    this.started.push(worker);
    return worker;
  }
}
