import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { sessionSubjects } from '@shared/bus/subjects/sessions';
import { found } from '@shared/errors/api-error';
import { askAboutReferences } from '../clients/references';
import { findSession, lockSession, updateSession as writeSession } from '../db/sessions';
import { sessionNotFound } from '../domain/not-found';
import { presentSession } from '../domain/present';
import { classifyReferences } from '../domain/references';
import { planSessionUpdate, sessionReferenceRefusal } from '../domain/session-update';
import type { DeploymentsDeps } from '../service';

/**
 * Updates a session (SDK SessionUpdateParams, see domain/session-update.ts). What needs other
 * services is asked first, outside any transaction: the agent snapshot (the row's own, or its
 * immutable version's) and, when a budget is set, whether the agent's model has a list price
 * (its version never changes, so the answer cannot go stale). Then, under the session's row
 * lock, the plan is made again against the locked row (a concurrent change wins as if it came
 * first) and written.
 */
export const updateSession =
  (deps: DeploymentsDeps): Handler<typeof sessionSubjects.update> =>
  async ({ session_id: id, update }, ctx) => {
    const tenant = tenantOf(ctx);
    const seen = found(await findSession(deps.db, tenant, id), () => sessionNotFound(id));
    const agent = await deps.agents.ofSession(ctx, seen);
    const { references } = planSessionUpdate(seen, agent, update, deps.clock.now());
    if (references) {
      const verdict = classifyReferences(references, await askAboutReferences(deps.bus, ctx, references));
      if (!verdict.ok) throw sessionReferenceRefusal(verdict.problem);
    }
    const next = await deps.db.transaction(async (tx) => {
      const row = found(await lockSession(tx, tenant, id), () => sessionNotFound(id));
      return writeSession(tx, row, planSessionUpdate(row, row.agent ?? agent, update, deps.clock.now()).change);
    });
    return presentSession(next, next.agent ?? agent);
  };
