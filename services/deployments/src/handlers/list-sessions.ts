import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { sessionSubjects } from '@shared/bus/subjects/sessions';
import { invalidRequest } from '@shared/errors/api-error';
import { listSessionPage } from '../db/session-list';
import { presentSession } from '../domain/present';
import type { DeploymentsDeps } from '../deps';

/**
 * Sessions page both ways: after a position, before one, or from the start. A page's rows are
 * presented once read, so the sessions stored before agent snapshots were kept get theirs (one
 * cached catalog answer per agent version) together.
 */
export const listSessions =
  (deps: DeploymentsDeps): Handler<typeof sessionSubjects.list> =>
  async (request, ctx) => {
    const tenant = tenantOf(ctx);
    if (request.after && request.before) throw invalidRequest('a sessions page starts after a position or before one, not both');
    const anchor = request.before ? { before: request.before } : request.after ? { after: request.after } : null;
    const page = await listSessionPage(deps.db, tenant, request.filters, request.limit, anchor, (row) => row);
    const agents = await Promise.all(page.data.map((row) => deps.agents.ofSession(ctx, row)));
    return { ...page, data: page.data.map((row, i) => presentSession(row, agents[i]!)) };
  };
