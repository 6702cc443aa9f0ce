import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { workSubjects } from '@shared/bus/subjects/runtime';
import { retryTransient } from '@shared/db/retry-transient';
import { found } from '@shared/errors/api-error';
import { findWorkItem, updateWorkItem } from '../db/work-items';
import { workNotFound } from '../domain/not-found';
import { presentWork, stop } from '../domain/work-lifecycle';
import type { RuntimeDeps } from '../deps';
import { closeAbandonedCalls } from '../session-driver/abandoned-calls';

/**
 * Stops an item (force: at once); an already stopped one is 409, which the SDK's worker takes as
 * done. An item ended by its worker rather than by the runtime (whose stops go `stopping` first)
 * may leave calls no one will run: they are closed as failed (session-driver/abandoned-calls.ts),
 * so the session never waits for ever.
 */
export const stopWork =
  (deps: RuntimeDeps): Handler<typeof workSubjects.stop> =>
  async ({ environment_id, work_id, force }, ctx) => {
    const tenant = tenantOf(ctx);
    const { row, endedByWorker } = await retryTransient(() =>
      deps.db.transaction(async (tx) => {
        const item = found(await findWorkItem(tx, tenant, environment_id, work_id, { lock: true }), () => workNotFound(work_id));
        const stopped = await updateWorkItem(tx, item, stop(item, force ?? false, deps.clock.now()));
        return { row: stopped, endedByWorker: item.state !== 'stopping' && stopped.state === 'stopped' };
      }),
    );
    if (endedByWorker) await closeAbandonedCalls(deps, tenant, row.sessionId, row.id);
    return presentWork(row);
  };
