import type { EventHandler } from '@shared/bus/event-consumer';
import type { SessionCreated } from '@shared/schema/session';
import type { SessionLogAppended } from '@shared/schema/session-event';
import type { RuntimeDeps } from '../deps';
import { driveUnderLease } from '../session-driver/drive-loop';

/** The notices that may mean a session has work: it was created, or its log grew. */
export type SessionNotice = typeof SessionCreated | typeof SessionLogAppended;

/**
 * A session notice -> the session driven as far as it can go now (session-driver/drive-loop.ts).
 * Both payloads name the session, which is all the driver takes of them besides the tenant; the
 * log, read again, says what to do.
 */
export const driveSession =
  (deps: RuntimeDeps): EventHandler<SessionNotice> =>
  (envelope) =>
    driveUnderLease(deps, { organization_id: envelope.organization_id, workspace_id: envelope.workspace_id }, envelope.data.session_id);
