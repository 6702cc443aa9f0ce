import { describe, expect, test } from 'bun:test';
import { newEventEnvelope } from '@shared/bus/outbox';
import { sessionEvents } from '@shared/schema/session';
import { sessionLogEvents } from '@shared/schema/session-event';
import { driveSession, StepBoundReached } from '../../../services/runtime/src/handlers/drive-session';
import type { RuntimeDeps } from '../../../services/runtime/src/deps';
import type { DriveDemand, DriveResult } from '../../../services/runtime/src/session-driver/drive-loop';

/**
 * Notices of a session joining the drive this replica already runs (handlers/drive-session.ts),
 * with the drive replaced by one the test finishes by hand: nothing here waits for time.
 */

const tenant = { organization_id: 'org_a', workspace_id: 'wrkspc_a' };
const notice = (sessionId: string, sequence: number, appended?: number) =>
  newEventEnvelope(sessionLogEvents.appended, tenant, { session_id: sessionId, sequence, ...(appended === undefined ? {} : { appended }) }, new Date());
const delivery = { subject: 's', deliveryCount: 1, streamSequence: 1 };

/** A drive per call, each finished by the test: `finish(i, result)` ends the i-th call. */
function handDriven() {
  const calls: Array<{ sessionId: string; demand: DriveDemand; finish: (r: DriveResult | Error) => void }> = [];
  let waiting: Array<{ count: number; resolve: () => void }> = [];
  const drive = (_deps: RuntimeDeps, _tenant: unknown, sessionId: string, demand: DriveDemand) =>
    new Promise<DriveResult>((resolve, reject) => {
      calls.push({ sessionId, demand, finish: (r) => (r instanceof Error ? reject(r) : resolve(r)) });
      for (const w of waiting.filter((w) => calls.length >= w.count)) w.resolve();
      waiting = waiting.filter((w) => calls.length < w.count);
    });
  /** Resolves once the drive has been called `count` times in all. */
  const called = (count: number) => (calls.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ count, resolve })));
  const handle = driveSession({} as RuntimeDeps, drive);
  /** The drive's last read began after the notices counted so far (all of them are covered). */
  const coveredNow = (i: number): DriveResult => ({ covered: calls[i]!.demand.notices, bounded: false });
  return {
    calls,
    called,
    handle: (sessionId: string, sequence: number, appended?: number) => handle(notice(sessionId, sequence, appended), delivery),
    handleEnvelope: (envelope: Parameters<typeof handle>[0]) => handle(envelope, delivery),
    coveredNow,
  };
}

describe('session notices joining a running drive', () => {
  test("a notice of a session being driven is acked at once and starts no second drive; the drive's last read covered it: done", async () => {
    const t = handDriven();
    const first = t.handle('sesn_1', 3);
    expect(t.calls).toHaveLength(1);
    await t.handle('sesn_1', 4);
    await t.handle('sesn_1', 5);
    expect(t.calls).toHaveLength(1);
    expect(t.calls[0]!.demand.notices).toBe(2);
    t.calls[0]!.finish(t.coveredNow(0));
    await first;
    expect(t.calls).toHaveLength(1);
  });

  test('a notice that came after the drive last read makes it drive again (the lease given back meanwhile) before the first notice is acked', async () => {
    const t = handDriven();
    let acked = false;
    const first = t.handle('sesn_1', 3).then(() => (acked = true));
    const readBefore = t.coveredNow(0);
    await t.handle('sesn_1', 4);
    t.calls[0]!.finish(readBefore);
    await t.called(2);
    expect(acked).toBe(false);
    t.calls[1]!.finish(t.coveredNow(1));
    await first;
    expect(acked).toBe(true);
  });

  test('other sessions are driven at once, each on its own', async () => {
    const t = handDriven();
    const one = t.handle('sesn_1', 1);
    const two = t.handle('sesn_2', 1);
    expect(t.calls.map((c) => c.sessionId)).toEqual(['sesn_1', 'sesn_2']);
    t.calls[0]!.finish(t.coveredNow(0));
    t.calls[1]!.finish(t.coveredNow(1));
    await Promise.all([one, two]);
  });

  test('a failed drive fails its notice (which comes back) and leaves the session to the next notice', async () => {
    const t = handDriven();
    const first = t.handle('sesn_1', 3);
    t.calls[0]!.finish(new Error('deployments unavailable'));
    await expect(first).rejects.toThrow('deployments unavailable');
    const next = t.handle('sesn_1', 4);
    expect(t.calls).toHaveLength(2);
    t.calls[1]!.finish(t.coveredNow(1));
    await next;
  });

  test('a drive that took its bound of steps fails its notice, so the session goes on from the queue', async () => {
    const t = handDriven();
    const first = t.handle('sesn_1', 3);
    t.calls[0]!.finish({ covered: 0, bounded: true });
    await expect(first).rejects.toBeInstanceOf(StepBoundReached);
  });
});

describe("notices of the drive's own appends", () => {
  test('are no demand while the drive runs, nor start a drive after it; a notice of anything else still does', async () => {
    const t = handDriven();
    const first = t.handle('sesn_1', 3, 1);
    // The drive appends twice (span start: 2 events to 5; the answer: 3 events to 8).
    t.calls[0]!.demand.appending(5, 2);
    await t.handle('sesn_1', 5, 2);
    expect(t.calls[0]!.demand.notices).toBe(0);
    t.calls[0]!.demand.appending(8, 3);
    t.calls[0]!.finish(t.coveredNow(0));
    await first;
    // Its last notice comes after the drive ended: acked, no drive.
    await t.handle('sesn_1', 8, 3);
    expect(t.calls).toHaveLength(1);
    // The same sequence without events (an archive's notice), or from a publisher that does not say: a drive.
    const archived = t.handle('sesn_1', 8, 0);
    expect(t.calls).toHaveLength(2);
    t.calls[1]!.finish(t.coveredNow(1));
    await archived;
    const unsaid = t.handle('sesn_1', 8);
    expect(t.calls).toHaveLength(3);
    t.calls[2]!.finish(t.coveredNow(2));
    await unsaid;
  });

  test("another session's append at the same sequence is not taken for one", async () => {
    const t = handDriven();
    const first = t.handle('sesn_1', 1, 1);
    t.calls[0]!.demand.appending(3, 2);
    t.calls[0]!.finish(t.coveredNow(0));
    await first;
    const other = t.handle('sesn_2', 3, 2);
    expect(t.calls.map((c) => c.sessionId)).toEqual(['sesn_1', 'sesn_2']);
    t.calls[1]!.finish(t.coveredNow(1));
    await other;
  });
});

describe('a new session', () => {
  const created = (initial: number | undefined) =>
    newEventEnvelope(
      sessionEvents.created,
      tenant,
      {
        session_id: 'sesn_new',
        deployment_id: null,
        deployment_run_id: null,
        ...tenant,
        agent: { type: 'agent', id: 'agent_1', version: 1 },
        environment_id: 'env_1',
        vault_ids: [],
        ...(initial === undefined ? {} : { initial_events: initial }),
      },
      new Date(),
    );

  test('created with an empty log: acked, no drive (nothing to do until an event is sent)', async () => {
    const t = handDriven();
    await t.handleEnvelope(created(0));
    expect(t.calls).toHaveLength(0);
  });

  test('created with initial events, or by a replica that does not say: driven', async () => {
    for (const initial of [2, undefined]) {
      const t = handDriven();
      const driving = t.handleEnvelope(created(initial));
      expect(t.calls).toHaveLength(1);
      t.calls[0]!.finish(t.coveredNow(0));
      await driving;
    }
  });
});
