/** The work item's state machine (services/runtime/src/domain/work-lifecycle.ts), with nothing but its inputs. */
import { describe, expect, test } from 'bun:test';
import type { WorkItemRow } from '../../../services/runtime/src/db/schema';
import { newWorkItem } from '../../../services/runtime/src/db/work-items';
import {
  acknowledge,
  claimFor,
  heartbeat,
  NO_HEARTBEAT,
  presentWork,
  settleLapsedStop,
  startOver,
  stop,
} from '../../../services/runtime/src/domain/work-lifecycle';

const T0 = new Date('2026-06-01T08:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const LEASE_MS = 8_000;

/** A freshly queued item, as the runtime first stores it, with the fields a case sets. */
function item(overrides: Partial<WorkItemRow> = {}): WorkItemRow {
  const owner = { organization_id: 'org_a', workspace_id: 'ws_a' };
  return { ...newWorkItem(owner, 'env_1', 'sesn_1', 'self_hosted', T0), id: 'work_1', ...overrides };
}

/** What a rule threw: status, message and details, or undefined when it did not throw. */
function refusal(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    const e = err as { status: number; message: string; details?: unknown };
    return { status: e.status, message: e.message, details: e.details };
  }
  return undefined;
}

describe('acknowledge', () => {
  test('queued -> starting, with the lease from now', () => {
    expect(acknowledge(item(), at(1), LEASE_MS)).toEqual({ state: 'starting', acknowledgedAt: at(1), leaseExpiresAt: at(1 + LEASE_MS) });
  });
  test('anything but queued is 409 naming the state', () => {
    for (const state of ['starting', 'active', 'stopping', 'stopped'] as const) {
      expect(refusal(() => acknowledge(item({ state }), at(1), LEASE_MS))).toMatchObject({ status: 409, message: `work 'work_1' is ${state}, not queued` });
    }
  });
});

describe('startOver and claimFor', () => {
  test('a queued item has nothing to undo; a served one forgets its worker\'s progress', () => {
    expect(startOver(item())).toEqual({});
    expect(startOver(item({ state: 'active', acknowledgedAt: T0, startedAt: T0, latestHeartbeatAt: T0 }))).toEqual({
      state: 'queued',
      acknowledgedAt: null,
      startedAt: null,
      latestHeartbeatAt: null,
    });
  });
  test('a claim acknowledges at once for its worker, a lapsed item included', () => {
    expect(claimFor(item(), 'sandbox-1', at(2), LEASE_MS)).toEqual({
      state: 'starting',
      acknowledgedAt: at(2),
      leaseExpiresAt: at(2 + LEASE_MS),
      workerId: 'sandbox-1',
    });
    const lapsed = item({ state: 'active', acknowledgedAt: T0, startedAt: T0, latestHeartbeatAt: T0, workerId: 'dead' });
    expect(claimFor(lapsed, 'sandbox-2', at(9_000), LEASE_MS)).toMatchObject({ state: 'starting', startedAt: null, latestHeartbeatAt: null, workerId: 'sandbox-2' });
  });
});

describe('heartbeat', () => {
  const served = item({ state: 'starting', acknowledgedAt: T0, leaseExpiresAt: at(LEASE_MS) });

  test('the first beat (the SDK sends its sentinel) makes the item active and extends the lease', () => {
    expect(heartbeat(served, NO_HEARTBEAT, at(1), LEASE_MS)).toEqual({ state: 'active', startedAt: at(1), latestHeartbeatAt: at(1), leaseExpiresAt: at(1 + LEASE_MS) });
    expect(heartbeat(served, undefined, at(1), LEASE_MS)).toMatchObject({ state: 'active' });
  });
  test('a later beat keeps the first start', () => {
    const active = item({ state: 'active', startedAt: at(1), latestHeartbeatAt: at(1) });
    expect(heartbeat(active, at(1).toISOString(), at(5), LEASE_MS)).toMatchObject({ startedAt: at(1), latestHeartbeatAt: at(5) });
  });
  test("a stale expected_last_heartbeat is 412 heartbeat_precondition_failed with the server's lease", () => {
    const active = item({ state: 'active', startedAt: at(1), latestHeartbeatAt: at(1) });
    expect(refusal(() => heartbeat(active, NO_HEARTBEAT, at(5), LEASE_MS))).toEqual({
      status: 412,
      message: `expected_last_heartbeat: the last heartbeat of work 'work_1' is ${at(1).toISOString()}`,
      details: {
        error_code: 'heartbeat_precondition_failed',
        current_state: { last_heartbeat: at(1).toISOString(), lease_extended: false, state: 'active', ttl_seconds: 8 },
      },
    });
  });
  test('stopping or stopped: no comparison, the beat is only recorded (the reply says stop)', () => {
    for (const state of ['stopping', 'stopped'] as const) {
      expect(heartbeat(item({ state, latestHeartbeatAt: at(1) }), 'anything at all', at(5), LEASE_MS)).toEqual({ latestHeartbeatAt: at(5) });
    }
  });
  test('a queued item (its lease lapsed and it was taken back) is 412 to a worker that beat before, 409 to one that never did', () => {
    expect(refusal(() => heartbeat(item(), at(1).toISOString(), at(5), LEASE_MS))?.status).toBe(412);
    expect(refusal(() => heartbeat(item(), NO_HEARTBEAT, at(5), LEASE_MS))).toMatchObject({ status: 409, message: "work 'work_1' has not been acknowledged" });
  });
});

describe('stop', () => {
  test('forced, or not yet served: stopped at once', () => {
    for (const [row, force] of [
      [item({ state: 'active' }), true],
      [item(), false],
      [item({ state: 'starting' }), false],
    ] as const) {
      expect(stop(row, force, at(3))).toEqual({ state: 'stopped', stoppedAt: at(3), stopRequestedAt: at(3), leaseExpiresAt: null });
    }
  });
  test('graceful on a served item: stopping, which its worker hears at the next beat; the first request time is kept', () => {
    expect(stop(item({ state: 'active' }), false, at(3))).toEqual({ state: 'stopping', stopRequestedAt: at(3) });
    expect(stop(item({ state: 'stopping', stopRequestedAt: at(1) }), true, at(3))).toMatchObject({ state: 'stopped', stopRequestedAt: at(1) });
  });
  test('an item already stopped is 409', () => {
    expect(refusal(() => stop(item({ state: 'stopped' }), true, at(3)))).toMatchObject({ status: 409, message: "work 'work_1' is already stopped" });
  });
});

describe('settleLapsedStop', () => {
  test('only a stopping item whose lease lapsed is settled as stopped', () => {
    expect(settleLapsedStop(item({ state: 'stopping', leaseExpiresAt: at(5) }), at(6))).toEqual({ state: 'stopped', stoppedAt: at(6), leaseExpiresAt: null });
    expect(settleLapsedStop(item({ state: 'stopping', leaseExpiresAt: at(5) }), at(4))).toBeUndefined();
    expect(settleLapsedStop(item({ state: 'stopping', leaseExpiresAt: null }), at(6))).toBeUndefined();
    expect(settleLapsedStop(item({ state: 'active', leaseExpiresAt: at(5) }), at(6))).toBeUndefined();
  });
});

describe('presentWork', () => {
  test('the API shape, with the secret only where given', () => {
    const row = item({ state: 'active', acknowledgedAt: at(1), startedAt: at(2), latestHeartbeatAt: at(3), metadata: { k: 'v' } });
    expect(presentWork(row)).toEqual({
      type: 'work',
      id: 'work_1',
      acknowledged_at: at(1).toISOString(),
      created_at: T0.toISOString(),
      data: { id: 'sesn_1', type: 'session' },
      environment_id: 'env_1',
      latest_heartbeat_at: at(3).toISOString(),
      metadata: { k: 'v' },
      secret: null,
      started_at: at(2).toISOString(),
      state: 'active',
      stop_requested_at: null,
      stopped_at: null,
    });
    expect(presentWork(row, 'sealed').secret).toBe('sealed');
  });
});
