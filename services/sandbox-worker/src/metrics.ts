/** How a claimed session's process ended. */
export type SessionOutcome =
  /** It exited cleanly (the SDK worker stopped the item or lost its lease). */
  | 'served'
  /** It could not start, or exited with an error. */
  | 'failed'
  /** It outlived SANDBOX_MAX_LIFETIME_MS and was killed; its item was stopped. */
  | 'timed_out'
  /** Shutdown killed it after the grace period; its item's lease lapses and another worker takes it. */
  | 'killed';

const OUTCOMES: readonly SessionOutcome[] = ['served', 'failed', 'timed_out', 'killed'];

/**
 * The sandbox worker's Prometheus metrics, in memory per process, rendered on the health port's
 * /metrics. Counters are per replica; Prometheus sums them.
 */
export function createSandboxWorkerMetrics() {
  const sessions = new Map<SessionOutcome, number>(OUTCOMES.map((o) => [o, 0]));
  let busy = 0;
  let claimFailures = 0;
  return {
    setBusy(isBusy: boolean): void {
      busy = isBusy ? 1 : 0;
    },
    countSession(outcome: SessionOutcome): void {
      sessions.set(outcome, sessions.get(outcome)! + 1);
    },
    countClaimFailure(): void {
      claimFailures += 1;
    },
    snapshot() {
      return { busy, claimFailures, sessions: Object.fromEntries(sessions) as Record<SessionOutcome, number> };
    },
    render(): string {
      return [
        '# HELP sandbox_busy 1 while this worker serves a session, else 0.',
        '# TYPE sandbox_busy gauge',
        `sandbox_busy ${busy}`,
        '# HELP sandbox_sessions_total Sessions this worker served, by how their process ended.',
        '# TYPE sandbox_sessions_total counter',
        ...OUTCOMES.map((o) => `sandbox_sessions_total{outcome="${o}"} ${sessions.get(o)}`),
        '# HELP sandbox_claim_failures_total Claims of the next session that failed (the runtime did not answer, or answered an error).',
        '# TYPE sandbox_claim_failures_total counter',
        `sandbox_claim_failures_total ${claimFailures}`,
        '',
      ].join('\n');
    },
  };
}
export type SandboxWorkerMetrics = ReturnType<typeof createSandboxWorkerMetrics>;
