import { mintSessionsToken, workSecret } from '@shared/crypto/sessions-token';
import { ApiError, conflict } from '@shared/errors/api-error';
import type { Work } from '@shared/schema/work';
import type { WorkItemRow } from '../db/schema';

/** How often a blocked poll or claim looks again for an item. */
export const LONG_POLL_INTERVAL_MS = 200;

/** Sent before a worker's first heartbeat (the SDK's sentinel) in place of a last heartbeat. */
export const NO_HEARTBEAT = 'NO_HEARTBEAT';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A work item as the API shows it; `secret` only on the poll that hands it out. */
export function presentWork(row: WorkItemRow, secret: string | null = null): Work {
  return {
    type: 'work',
    id: row.id,
    acknowledged_at: iso(row.acknowledgedAt),
    created_at: row.createdAt.toISOString(),
    data: { id: row.sessionId, type: 'session' },
    environment_id: row.environmentId,
    latest_heartbeat_at: iso(row.latestHeartbeatAt),
    metadata: row.metadata,
    secret,
    started_at: iso(row.startedAt),
    state: row.state,
    stop_requested_at: iso(row.stopRequestedAt),
    stopped_at: iso(row.stoppedAt),
  };
}

/**
 * The secret an item is handed out with (by a poll or a claim): a sessions token scoped to its one
 * session and item, valid for `ttlMs`.
 */
export function issueWorkSecret(row: WorkItemRow, key: Buffer, now: Date, ttlMs: number): string {
  return workSecret(
    mintSessionsToken(key, {
      organization_id: row.organizationId,
      workspace_id: row.workspaceId,
      session_id: row.sessionId,
      environment_id: row.environmentId,
      work_id: row.id,
      expires_at: now.getTime() + ttlMs,
    }),
  );
}

/** queued -> starting: a worker that polled the item says it has it. */
export function acknowledge(row: WorkItemRow, now: Date, leaseMs: number): Partial<WorkItemRow> {
  if (row.state !== 'queued') throw conflict(`work '${row.id}' is ${row.state}, not queued`);
  return { state: 'starting', acknowledgedAt: now, leaseExpiresAt: new Date(now.getTime() + leaseMs) };
}

/** An item taken back from a worker whose lease lapsed starts over: its next worker acknowledges it like a queued one. */
export function startOver(row: WorkItemRow): Partial<WorkItemRow> {
  return row.state === 'queued' ? {} : { state: 'queued', acknowledgedAt: null, startedAt: null, latestHeartbeatAt: null };
}

/**
 * A sandbox worker's claim: the item (queued, or taken back after a lapsed lease) is acknowledged
 * for that worker at once, so its heartbeat lease starts now; no poll hold is needed, since no
 * one else is handed an item in between.
 */
export function claimFor(row: WorkItemRow, workerId: string, now: Date, leaseMs: number): Partial<WorkItemRow> {
  const restarted = startOver(row);
  return { ...restarted, ...acknowledge({ ...row, ...restarted }, now, leaseMs), workerId };
}

/**
 * A heartbeat: moves starting to active and extends the lease; fenced on the last heartbeat the
 * worker saw (412 `heartbeat_precondition_failed` with the server's view of the lease when another
 * worker beat since: the SDK's worker then knows its lease is lost). An item that is stopping or
 * stopped is not compared (SDK 1.x documents it): the beat only records itself and the reply says
 * to stop, so a worker that raced a stop still hears it instead of a lost lease.
 */
export function heartbeat(row: WorkItemRow, expected: string | null | undefined, now: Date, leaseMs: number): Partial<WorkItemRow> {
  if (row.state === 'stopping' || row.state === 'stopped') return { latestHeartbeatAt: now };
  const last = iso(row.latestHeartbeatAt) ?? NO_HEARTBEAT;
  if (expected != null && expected !== last) {
    const current_state = { last_heartbeat: iso(row.latestHeartbeatAt), lease_extended: false, state: row.state, ttl_seconds: leaseMs / 1000 };
    throw new ApiError('invalid_request_error', `expected_last_heartbeat: the last heartbeat of work '${row.id}' is ${last}`, {
      status: 412,
      details: { error_code: 'heartbeat_precondition_failed', current_state },
    });
  }
  if (row.state === 'queued') throw conflict(`work '${row.id}' has not been acknowledged`);
  return {
    state: 'active',
    startedAt: row.startedAt ?? now,
    latestHeartbeatAt: now,
    leaseExpiresAt: new Date(now.getTime() + leaseMs),
  };
}

/** Stop: at once when forced or not yet served; else `stopping`, which the worker's next heartbeat hears. */
export function stop(row: WorkItemRow, force: boolean, now: Date): Partial<WorkItemRow> {
  if (row.state === 'stopped') throw conflict(`work '${row.id}' is already stopped`);
  if (force || row.state === 'queued' || row.state === 'starting') {
    return { state: 'stopped', stoppedAt: now, stopRequestedAt: row.stopRequestedAt ?? now, leaseExpiresAt: null };
  }
  return { state: 'stopping', stopRequestedAt: row.stopRequestedAt ?? now };
}

/**
 * A stop its worker never finished: an item left `stopping` whose lease lapsed (its worker died
 * before its last heartbeat) is stopped, so the session can be served again. Undefined for any
 * other item. Without this, such an item would count as the session's live one for ever.
 */
export function settleLapsedStop(row: WorkItemRow, now: Date): Partial<WorkItemRow> | undefined {
  if (row.state !== 'stopping' || row.leaseExpiresAt === null || row.leaseExpiresAt > now) return undefined;
  return { state: 'stopped', stoppedAt: now, leaseExpiresAt: null };
}
