import type { Handler } from '@shared/bus/bus-server';
import type { workSubjects } from '@shared/bus/subjects/runtime';
import { retryTransient } from '@shared/db/retry-transient';
import { found } from '@shared/errors/api-error';
import { findWorkItemById, updateWorkItem } from '../db/work-items';
import { workNotFound } from '../domain/not-found';
import { presentWork, stop } from '../domain/work-lifecycle';
import type { RuntimeDeps } from '../deps';
import { closeAbandonedCalls } from '../session-driver/abandoned-calls';

/**
 * A sandbox worker could not start a claimed item's session (its environment's packages failed to
 * install, no sandbox can be made on it): the item is stopped at once and the calls it was there
 * to run are answered as failed under a session.error carrying the worker's reason, so the
 * session's client reads why, and the session is idle for what comes next. A system call (the
 * sandbox worker holds no tenant): the item is found by its id and its tenant is its owner's. An
 * item stopped already answers as it is.
 */
export const failWork =
  (deps: RuntimeDeps): Handler<typeof workSubjects.fail> =>
  async ({ work_id, message }) => {
    const { before, after } = await retryTransient(() =>
      deps.db.transaction(async (tx) => {
        const item = found(await findWorkItemById(tx, work_id, { lock: true }), () => workNotFound(work_id));
        if (item.state === 'stopped') return { before: item, after: item };
        return { before: item, after: await updateWorkItem(tx, item, stop(item, true, deps.clock.now())) };
      }),
    );
    if (before.state !== 'stopped') {
      await closeAbandonedCalls(deps, { organization_id: after.organizationId, workspace_id: after.workspaceId }, after.sessionId, after.id, message);
    }
    return presentWork(after);
  };
