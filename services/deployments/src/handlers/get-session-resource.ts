import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { sessionResourceSubjects } from '@shared/bus/subjects/sessions';
import { found } from '@shared/errors/api-error';
import { findSession } from '../db/sessions';
import { sessionNotFound } from '../domain/not-found';
import { materialised, sessionResourceNotFound } from '../domain/session-resources';
import type { DeploymentsDeps } from '../deps';

/** One resource of the tenant's session; another tenant's session, or a resource not in it, is 404. */
export const getSessionResource =
  (deps: DeploymentsDeps): Handler<typeof sessionResourceSubjects.get> =>
  async ({ session_id, resource_id }, ctx) => {
    const row = found(await findSession(deps.db, tenantOf(ctx), session_id), () => sessionNotFound(session_id));
    return found(
      materialised(row.id, row.createdAt, row.resources).find((r) => r.id === resource_id),
      () => sessionResourceNotFound(session_id, resource_id),
    );
  };
