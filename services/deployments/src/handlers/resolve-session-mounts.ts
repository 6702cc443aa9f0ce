import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { sessionResourceSubjects } from '@shared/bus/subjects/sessions';
import { found } from '@shared/errors/api-error';
import { findSession } from '../db/sessions';
import { readRepositorySeals } from '../db/session-secrets';
import { sessionNotFound } from '../domain/not-found';
import { sessionMounts } from '../domain/session-mounts';
import { materialised } from '../domain/session-resources';
import type { DeploymentsDeps } from '../deps';

/**
 * The runtime's, for a cloud item's claim: what the session mounts, repository tokens opened
 * (domain/session-mounts.ts). NATS refuses this subject to every identity but the runtime's; the
 * tokens go on to the sandbox worker, which uses them outside the session's sandbox only.
 */
export const resolveSessionMounts =
  (deps: DeploymentsDeps): Handler<typeof sessionResourceSubjects.resolve> =>
  async ({ session_id }, ctx) => {
    const row = found(await findSession(deps.db, tenantOf(ctx), session_id), () => sessionNotFound(session_id));
    const resources = materialised(row.id, row.createdAt, row.resources);
    return sessionMounts(deps.masterKeys, row.id, resources, await readRepositorySeals(deps.db, row));
  };
