import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { sessionSubjects } from '@shared/bus/subjects/sessions';
import { found } from '@shared/errors/api-error';
import { lockSession, updateSession } from '../db/sessions';
import { sessionNotFound } from '../domain/not-found';
import { presentSession } from '../domain/present';
import type { DeploymentsDeps } from '../service';

/**
 * Archives a session, one-way: it stays readable and listed with `include_archived`, and every
 * change (update, resources) is refused from then on; archiving again answers it as it is. Its
 * status does not change, so no status event is due (the events helper's rule).
 */
export const archiveSession =
  (deps: DeploymentsDeps): Handler<typeof sessionSubjects.archive> =>
  async ({ session_id: id }, ctx) => {
    const tenant = tenantOf(ctx);
    const row = await deps.db.transaction(async (tx) => {
      const locked = found(await lockSession(tx, tenant, id), () => sessionNotFound(id));
      if (locked.archivedAt) return locked;
      const now = deps.clock.now();
      return updateSession(tx, locked, { archivedAt: now, updatedAt: now });
    });
    return presentSession(row, await deps.agents.ofSession(ctx, row));
  };
