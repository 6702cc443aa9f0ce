import type { Handler } from '@shared/bus/bus-server';
import type { workSubjects } from '@shared/bus/subjects/runtime';
import { found } from '@shared/errors/api-error';
import { findWorkItemById } from '../db/work-items';
import { workNotFound } from '../domain/not-found';
import { presentWork } from '../domain/work-lifecycle';
import type { RuntimeDeps } from '../deps';
import { appendAtLogEnd } from '../session-driver/session-log-writes';

/**
 * A sandbox worker could not clone one of a claimed item's repositories: the session runs on
 * without it (the SDK: "the session keeps running without the repository"), and its log gets
 * the SDK's session.error for it, `retrying`, naming the repository. A system call: the item is
 * found by its id, its tenant is its owner's.
 */
export const reportWork =
  (deps: RuntimeDeps): Handler<typeof workSubjects.report> =>
  async ({ work_id, error }) => {
    const item = found(await findWorkItemById(deps.db, work_id), () => workNotFound(work_id));
    const owner = { organization_id: item.organizationId, workspace_id: item.workspaceId };
    await appendAtLogEnd(deps, owner, item.sessionId, `req_runtime_report_${work_id}`, () => [
      { type: 'session.error', error: { type: error.type, message: error.message, repository_url: error.repository_url, retry_status: { type: 'retrying' } } },
    ]);
    return presentWork(item);
  };
