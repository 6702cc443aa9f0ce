import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { workSubjects } from '@shared/bus/subjects/runtime';
import { changeWorkItem } from './work-change';
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
    const { before, after: row } = await changeWorkItem(deps, ctx, { environment_id, work_id }, (item) => stop(item, force ?? false, deps.clock.now()));
    const endedByWorker = before.state !== 'stopping' && row.state === 'stopped';
    if (endedByWorker) await closeAbandonedCalls(deps, tenantOf(ctx), row.sessionId, row.id);
    return presentWork(row);
  };
