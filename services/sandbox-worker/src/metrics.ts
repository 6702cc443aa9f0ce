import { Counter, Gauge, Registry } from 'prom-client';
import { SESSION_OUTCOMES, type SessionOutcome } from './domain/session-outcome';

/**
 * The sandbox worker's metrics, in the process's registry (served on the health port's /metrics
 * with the rest); a worker built without one (tests) gets a registry of its own. Counters are per
 * replica; Prometheus sums them.
 */
export function createSandboxWorkerMetrics(registry: Registry = new Registry()) {
  const registers = [registry];
  const busyGauge = new Gauge({ name: 'sandbox_busy', help: '1 while this worker serves a session, else 0.', registers });
  const sessionsTotal = new Counter({
    name: 'sandbox_sessions_total',
    help: 'Sessions this worker served, by how their process ended.',
    labelNames: ['outcome'],
    registers,
  });
  const claimFailuresTotal = new Counter({
    name: 'sandbox_claim_failures_total',
    help: 'Claims of the next session that failed (the runtime did not answer, or answered an error).',
    registers,
  });
  busyGauge.set(0);
  for (const outcome of SESSION_OUTCOMES) sessionsTotal.inc({ outcome }, 0);
  return {
    setBusy(isBusy: boolean): void {
      busyGauge.set(isBusy ? 1 : 0);
    },
    countSession(outcome: SessionOutcome): void {
      sessionsTotal.inc({ outcome });
    },
    countClaimFailure(): void {
      claimFailuresTotal.inc();
    },
    /** The figures as numbers, for tests. */
    async snapshot() {
      const [busy, sessions, claimFailures] = await Promise.all([busyGauge.get(), sessionsTotal.get(), claimFailuresTotal.get()]);
      return {
        busy: busy.values[0]?.value ?? 0,
        claimFailures: claimFailures.values[0]?.value ?? 0,
        sessions: Object.fromEntries(sessions.values.map((v) => [v.labels.outcome, v.value])) as Record<SessionOutcome, number>,
      };
    },
  };
}
export type SandboxWorkerMetrics = ReturnType<typeof createSandboxWorkerMetrics>;
