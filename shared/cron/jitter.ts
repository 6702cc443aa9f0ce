import { createHash } from 'node:crypto';

/**
 * A fixed per-deployment delay added to each fire, so thousands of schedules on the same
 * `0 * * * *` do not all start in the same second, while one deployment keeps a stable
 * cadence across restarts and replicas (no randomness, no stored state).
 *
 * Returns whole milliseconds in [0, maxMs).
 */
export function scheduleJitterMs(deploymentId: string, maxMs = 60_000): number {
  if (!Number.isFinite(maxMs) || maxMs < 0) throw new RangeError('maxMs must be a finite, non-negative number');
  const digest = createHash('sha256').update(deploymentId).digest();
  // 48 bits is as much as a double holds exactly; fraction in [0, 1).
  const fraction = digest.readUIntBE(0, 6) / 2 ** 48;
  return Math.floor(fraction * maxMs);
}
