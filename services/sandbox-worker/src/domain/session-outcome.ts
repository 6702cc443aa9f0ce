/** How a claimed session's process ended. */
export type SessionOutcome =
  /** It exited cleanly (the SDK worker stopped the item or lost its lease). */
  | 'served'
  /** It could not start, or exited with an error. */
  | 'failed'
  /** It outlived SANDBOX_MAX_LIFETIME_MS and was killed; its item was stopped. */
  | 'timed_out'
  /** Shutdown killed it after the grace period; its item's lease lapses and another worker takes it. */
  | 'killed'
  /**
   * It never started: its environment's packages failed to install, or this worker cannot
   * sandbox it; the session got a session.error saying so. The session's, not the worker's: no
   * back-off.
   */
  | 'setup_failed';

export const SESSION_OUTCOMES: readonly SessionOutcome[] = ['served', 'failed', 'timed_out', 'killed', 'setup_failed'];
