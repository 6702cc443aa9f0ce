import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { sessionEventSubjects } from '@shared/bus/subjects/session-events';
import { retryTransient } from '@shared/db/retry-transient';
import { found, invalidRequest } from '@shared/errors/api-error';
import { appendFencedToSessionLog } from '../db/session-log';
import { lockSessionForAppend } from '../db/sessions';
import { sessionNotFound } from '../domain/not-found';
import type { DeploymentsDeps } from '../deps';

/**
 * The runtime's side of a session's log: the agent's events, spans and status changes of a turn,
 * and the usage of the model response they came from. Fenced on the log's end (`after_sequence`),
 * so a turn decided on a log that has grown since, or driven by a replica whose lease lapsed,
 * writes nothing: each event of a turn is recorded once, however often the turn is retried.
 * A drive's own append (`caller_drives`) records no notice for the work queue: the drive goes on
 * from the reply, and the notice would only be acked by it (two of a turn's three, before).
 */
export const appendRuntimeEvents =
  (deps: DeploymentsDeps): Handler<typeof sessionEventSubjects.append> =>
  async ({ session_id, after_sequence, events, usage, caller_drives }, ctx) => {
    const tenant = tenantOf(ctx);
    const appended = await retryTransient(() =>
      deps.db.transaction(async (tx) => {
        const locked = found(await lockSessionForAppend(tx, tenant, session_id), () => sessionNotFound(session_id));
        if (locked.status === 'terminated') throw invalidRequest(`session '${session_id}' is terminated`);
        return appendFencedToSessionLog(tx, locked, { afterSequence: after_sequence, events, usage, callerDrives: caller_drives }, deps.clock.now());
      }),
    );
    return deps.announceAppend(session_id, appended);
  };
