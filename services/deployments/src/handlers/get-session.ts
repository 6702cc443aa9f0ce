import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import { found } from '@shared/errors/api-error';
import type { sessionSubjects } from '@shared/bus/subjects/sessions';
import { findSession } from '../db/sessions';
import { sessionNotFound } from '../domain/not-found';
import { presentSession } from '../domain/present';
import type { DeploymentsDeps } from '../deps';

/** Another tenant's session is not found, like a missing one. */
export const getSession =
  (deps: DeploymentsDeps): Handler<typeof sessionSubjects.get> =>
  async ({ session_id }, ctx) => {
    const row = found(await findSession(deps.db, tenantOf(ctx), session_id), () => sessionNotFound(session_id));
    return presentSession(row, await deps.agents.ofSession(ctx, row));
  };
