import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { workSubjects } from '@shared/bus/subjects/runtime';
import { retryTransient } from '@shared/db/retry-transient';
import { found } from '@shared/errors/api-error';
import { findWorkItem, updateWorkItem } from '../db/work-items';
import { workNotFound } from '../domain/not-found';
import { acknowledge, presentWork } from '../domain/work-lifecycle';
import type { RuntimeDeps } from '../deps';

/** queued -> starting: the poller has the item; its heartbeat lease starts now. */
export const ackWork =
  (deps: RuntimeDeps): Handler<typeof workSubjects.ack> =>
  async ({ environment_id, work_id }, ctx) => {
    const tenant = tenantOf(ctx);
    const row = await retryTransient(() =>
      deps.db.transaction(async (tx) => {
        const item = found(await findWorkItem(tx, tenant, environment_id, work_id, { lock: true }), () => workNotFound(work_id));
        return updateWorkItem(tx, item, acknowledge(item, deps.clock.now(), deps.config.WORK_LEASE_TTL_SECONDS * 1000));
      }),
    );
    return presentWork(row);
  };
