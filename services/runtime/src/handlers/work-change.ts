import { tenantOf, type CallContext } from '@shared/bus/call-context';
import { retryTransient } from '@shared/db/retry-transient';
import { found } from '@shared/errors/api-error';
import type { WorkItemRow } from '../db/schema';
import { findWorkItem, updateWorkItem } from '../db/work-items';
import { workNotFound } from '../domain/not-found';
import type { RuntimeDeps } from '../deps';

/**
 * How a worker's call changes its item (a helper of the handlers, not a use case): the caller's
 * item locked in one transaction, so a heartbeat, a stop and the runtime's own stop never write
 * over each other; 404 when it is not the caller's; retried whole on a transient database error.
 * `change` decides from the item as it was (a domain rule) and may refuse with an ApiError.
 */
export function changeWorkItem(
  deps: RuntimeDeps,
  ctx: CallContext,
  ids: { environment_id: string; work_id: string },
  change: (item: WorkItemRow) => Partial<WorkItemRow>,
): Promise<{ before: WorkItemRow; after: WorkItemRow }> {
  const tenant = tenantOf(ctx);
  return retryTransient(() =>
    deps.db.transaction(async (tx) => {
      const before = found(await findWorkItem(tx, tenant, ids.environment_id, ids.work_id, { lock: true }), () => workNotFound(ids.work_id));
      return { before, after: await updateWorkItem(tx, before, change(before)) };
    }),
  );
}
