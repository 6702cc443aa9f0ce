import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { sessionSubjects } from '@shared/bus/subjects/sessions';
import { invalidRequest } from '@shared/errors/api-error';
import { listSessionPage } from '../db/sessions';
import { presentSession } from '../domain/present';
import type { DeploymentsDeps } from '../service';

/** Sessions page both ways: after a position, before one, or from the start. */
export const listSessions =
  (deps: DeploymentsDeps): Handler<typeof sessionSubjects.list> =>
  async (request, ctx) => {
    const tenant = tenantOf(ctx);
    if (request.after && request.before) throw invalidRequest('a sessions page starts after a position or before one, not both');
    const anchor = request.before ? { before: request.before } : request.after ? { after: request.after } : null;
    return listSessionPage(deps.db, tenant, request.filters, request.limit, anchor, presentSession);
  };
