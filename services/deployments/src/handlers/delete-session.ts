import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { sessionSubjects } from '@shared/bus/subjects/sessions';
import { found } from '@shared/errors/api-error';
import { deleteSessionEvents } from '../db/session-events';
import { deleteSessionRows, lockSession } from '../db/sessions';
import { sessionNotFound } from '../domain/not-found';
import type { DeploymentsDeps } from '../deps';

/**
 * Deletes a session for good, archived or not: its row, resources' mounts, sealed tokens and
 * event log (whose deletion tells open streams `session.deleted`), in one transaction. A
 * deployment run that created it keeps its `session_id`, which from then on names nothing (404),
 * as a run's record of what it did.
 */
export const deleteSession =
  (deps: DeploymentsDeps): Handler<typeof sessionSubjects.delete> =>
  async ({ session_id: id }, ctx) => {
    const tenant = tenantOf(ctx);
    await deps.db.transaction(async (tx) => {
      found(await lockSession(tx, tenant, id), () => sessionNotFound(id));
      await deleteSessionRows(tx, id);
      await deleteSessionEvents(tx, tenant, id, deps.clock.now());
    });
    deps.eventsRecorded();
    return { id, type: 'session_deleted' as const };
  };
