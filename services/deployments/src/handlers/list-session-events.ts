import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { sessionEventSubjects } from '@shared/bus/subjects/session-events';
import { found, invalidRequest } from '@shared/errors/api-error';
import { listSessionEventPage } from '../db/session-events';
import { findSession } from '../db/sessions';
import { sessionNotFound } from '../domain/not-found';
import type { DeploymentsDeps } from '../deps';

/**
 * One page of a session's events, either way (the SDK reads `next_page`; `prev_page` goes back).
 * Another tenant's session is not found, like a missing one; an archived session's log is read
 * as any other.
 */
export const listSessionEvents =
  (deps: DeploymentsDeps): Handler<typeof sessionEventSubjects.list> =>
  async ({ filters, limit, after, before }, ctx) => {
    found(await findSession(deps.db, tenantOf(ctx), filters.session_id), () => sessionNotFound(filters.session_id));
    const anchor = after ? { after } : before ? { before } : null;
    // A cursor names an event of this session (its binding says so); one that no longer exists is stale.
    return found(await listSessionEventPage(deps.db, filters, limit, anchor), () => invalidRequest('invalid page cursor'));
  };
