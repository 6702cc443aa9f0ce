import type { EventHandler } from '@shared/bus/event-consumer';
import type { SessionCreated } from '@shared/schema/session';
import type { SessionLogAppended } from '@shared/schema/session-event';
import type { TenantIds } from '@shared/schema/tenant';
import type { RuntimeDeps } from '../deps';
import { OwnAppends } from '../domain/own-appends';
import { driveUnderLease, type DriveDemand, type DriveResult } from '../session-driver/drive-loop';

/** The notices that may mean a session has work: it was created, or its log grew. */
export type SessionNotice = typeof SessionCreated | typeof SessionLogAppended;

/** A drive took its bound of steps: its notice goes back to the queue, and the session goes on from there. */
export class StepBoundReached extends Error {}

/**
 * A session notice -> the session driven as far as it can go now (session-driver/drive-loop.ts).
 * Both payloads name the session, which is all the driver takes of them besides the tenant; the
 * log, read again, says what to do.
 *
 * A notice of a session this replica is driving now joins that drive instead of racing it for
 * the lease (which it would lose, to come back a quarter second later, and a client's next
 * message with it): the drive reads the session once more before it ends if the notice came after
 * its last read began. The notices of the drive's own appends, which come while it goes on,
 * mostly cost nothing that way. A joined notice is acked at once. That loses nothing: the notice
 * that started the drive stays unacked until the drive has read past the joined ones, and comes
 * back (to be driven from the log, whole) if the drive fails.
 *
 * A drive's appends ask the deployments service for no notice (`caller_drives`): the drive knew
 * of its own append, so a notice of it is not "look again" (before, each turn's two own notices
 * made its drive read once more or start again, to find nothing). One an older deployments
 * replica sends anyway (domain/own-appends.ts) is acked and nothing more, during the drive or after it.
 */
export const driveSession = (
  deps: RuntimeDeps,
  // The drive itself; tests of the joining give their own.
  drive: (deps: RuntimeDeps, tenant: TenantIds, sessionId: string, demand: DriveDemand) => Promise<DriveResult> = driveUnderLease,
): EventHandler<SessionNotice> => {
  const driving = new Map<string, DriveDemand>();
  const own = new OwnAppends();
  return async (envelope) => {
    const sessionId = envelope.data.session_id;
    if ('sequence' in envelope.data && own.has(sessionId, envelope.data.sequence, envelope.data.appended)) return;
    // A session created with an empty log has nothing to drive yet (its first send's notice starts it).
    if ('initial_events' in envelope.data && envelope.data.initial_events === 0) return;
    const running = driving.get(sessionId);
    if (running) {
      running.notices += 1;
      return;
    }
    const demand: DriveDemand = { notices: 0, appending: (last, count) => own.add(sessionId, last, count) };
    // What the notice says of its append may stand in for the drive's first read (domain/known-logs.ts noticedContinuation).
    if ('sequence' in envelope.data) demand.noticed = { sequence: envelope.data.sequence, revision: envelope.data.revision, events: envelope.data.events };
    driving.set(sessionId, demand);
    try {
      // Again when a notice came after the drive's last read, as late as while it gave the lease back.
      for (;;) {
        const done = await drive(deps, { organization_id: envelope.organization_id, workspace_id: envelope.workspace_id }, sessionId, demand);
        if (done.bounded) throw new StepBoundReached(`session ${sessionId}: step bound reached; the notice comes back to go on`);
        if (demand.notices <= done.covered) return;
      }
    } finally {
      driving.delete(sessionId);
    }
  };
};
