import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { sessionEventSubjects } from '@shared/bus/subjects/session-events';
import type { DeploymentsDeps } from '../deps';

/**
 * The runtime's side of a session's log: the agent's events, spans and status changes of a turn,
 * and the usage of the model response they came from. Fenced on the log's end (`after_sequence`),
 * so a turn decided on a log that has grown since, or driven by a replica whose lease lapsed,
 * writes nothing: each event of a turn is recorded once, however often the turn is retried.
 * A drive's own append (`caller_drives`) records no notice for the work queue: the drive goes on
 * from the reply, and the notice would only be acked by it (two of a turn's three, before).
 * Group-committed with the appends that arrive meanwhile (db/append-batch.ts).
 */
export const appendRuntimeEvents =
  (deps: DeploymentsDeps): Handler<typeof sessionEventSubjects.append> =>
  async ({ session_id, after_sequence, events, usage, caller_drives }, ctx) => {
    // The group commit holds one connection for the batch: the wait needs no slot of the tenant's.
    ctx.releaseTenantSlot?.();
    const appended = await deps.logAppends.call({
      appender: 'runtime',
      tenant: tenantOf(ctx),
      sessionId: session_id,
      afterSequence: after_sequence,
      events,
      ...(usage ? { usage } : {}),
      ...(caller_drives === undefined ? {} : { callerDrives: caller_drives }),
    });
    return deps.announceAppend(session_id, appended);
  };
