import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { sessionSubjects } from '@shared/bus/subjects/sessions';
import { notFound } from '@shared/errors/api-error';
import { findSession } from '../db/session-queries';
import { presentSession } from '../domain/present';
import type { DeploymentsDeps } from '../service';

/** Another tenant's session is not found, like a missing one. */
export const getSession =
  (deps: DeploymentsDeps): Handler<typeof sessionSubjects.get> =>
  async ({ session_id }, ctx) => {
    const row = await findSession(deps.db, tenantOf(ctx), session_id);
    if (!row) throw notFound(`session '${session_id}' not found`);
    return presentSession(row);
  };
