import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { sessionResourceSubjects } from '@shared/bus/subjects/sessions';
import { found } from '@shared/errors/api-error';
import { findSession } from '../db/sessions';
import { sessionNotFound } from '../domain/not-found';
import { resourcePage } from '../domain/session-resources';
import type { DeploymentsDeps } from '../deps';

/** A session's resources in their order (the order they were given, then added), a page at a time. */
export const listSessionResources =
  (deps: DeploymentsDeps): Handler<typeof sessionResourceSubjects.list> =>
  async ({ filters: { session_id: id }, limit, after }, ctx) => {
    const row = found(await findSession(deps.db, tenantOf(ctx), id), () => sessionNotFound(id));
    return resourcePage(row, limit, after);
  };
