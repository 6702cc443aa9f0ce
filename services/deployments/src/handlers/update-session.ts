import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { sessionSubjects } from '@shared/bus/subjects/sessions';
import { found } from '@shared/errors/api-error';
import { requireReferences } from '../clients/references';
import { appendToSessionLog } from '../db/session-log';
import { findSession, lockSession, updateSession as writeSession } from '../db/sessions';
import { sessionNotFound } from '../domain/not-found';
import { presentSession } from '../domain/present';
import { planSessionUpdate, sessionReferenceRefusal, sessionUpdatedEvent } from '../domain/session-update';
import type { DeploymentsDeps } from '../deps';

/**
 * Updates a session (SDK SessionUpdateParams, see domain/session-update.ts). What needs other
 * services is asked first, outside any transaction: the agent snapshot (the row's own, or its
 * immutable version's) and, when a budget is set, whether the agent's model has a list price
 * (its version never changes, so the answer cannot go stale). Then, under the session's row
 * lock, the plan is made again against the locked row (a concurrent change wins as if it came
 * first) and written, with a `session.updated` event in the session's log when something changed.
 */
export const updateSession =
  (deps: DeploymentsDeps): Handler<typeof sessionSubjects.update> =>
  async ({ session_id: id, update }, ctx) => {
    const tenant = tenantOf(ctx);
    const seen = found(await findSession(deps.db, tenant, id), () => sessionNotFound(id));
    const agent = await deps.agents.ofSession(ctx, seen);
    const { references } = planSessionUpdate(seen, agent, update, deps.clock.now(), deps.mcpUrls);
    if (references) {
      await requireReferences(deps.bus, ctx, references, sessionReferenceRefusal);
    }
    const { next, appended } = await deps.db.transaction(async (tx) => {
      const row = found(await lockSession(tx, tenant, id), () => sessionNotFound(id));
      const now = deps.clock.now();
      const before = row.agent ?? agent;
      const written = await writeSession(tx, row, planSessionUpdate(row, before, update, now, deps.mcpUrls).change);
      // What changed goes into the session's log (`session.updated`), in the same transaction.
      const event = sessionUpdatedEvent(row, before, written);
      return { next: written, appended: event ? await appendToSessionLog(tx, written, [event], now) : null };
    });
    if (appended) deps.announceAppend(id, appended);
    return presentSession(next, next.agent ?? agent);
  };
