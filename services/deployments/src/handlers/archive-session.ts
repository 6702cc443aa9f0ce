import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { sessionSubjects } from '@shared/bus/subjects/sessions';
import { found } from '@shared/errors/api-error';
import { recordSessionNotice } from '../db/session-log';
import { lockSession, updateSession } from '../db/sessions';
import { sessionNotFound } from '../domain/not-found';
import { presentSession } from '../domain/present';
import type { DeploymentsDeps } from '../deps';

/**
 * Archives a session, one-way: it stays readable and listed with `include_archived`, and every
 * change (update, resources) is refused from then on; archiving again answers it as it is. It is
 * shown `terminated` from then on (as the SDK reads an archived session); its log gets no status
 * event (nothing ran), only a notice so the runtime stops its worker.
 */
export const archiveSession =
  (deps: DeploymentsDeps): Handler<typeof sessionSubjects.archive> =>
  async ({ session_id: id }, ctx) => {
    const tenant = tenantOf(ctx);
    const row = await deps.db.transaction(async (tx) => {
      const locked = found(await lockSession(tx, tenant, id), () => sessionNotFound(id));
      if (locked.archivedAt) return locked;
      const now = deps.clock.now();
      // Shown `terminated` from now on (domain/present.ts): the runtime hears of it and stops its worker.
      await recordSessionNotice(tx, locked, now);
      return updateSession(tx, locked, { archivedAt: now, updatedAt: now });
    });
    return presentSession(row, await deps.agents.ofSession(ctx, row));
  };
