import type { Handler } from '@shared/bus/bus-server';
import type { workSubjects } from '@shared/bus/subjects/runtime';
import { changeWorkItem } from './work-change';
import { presentWork, stop } from '../domain/work-lifecycle';
import type { RuntimeDeps } from '../deps';

/** Stops an item (force: at once); an already stopped one is 409, which the SDK's worker takes as done. */
export const stopWork =
  (deps: RuntimeDeps): Handler<typeof workSubjects.stop> =>
  async ({ environment_id, work_id, force }, ctx) => {
    const { after: row } = await changeWorkItem(deps, ctx, { environment_id, work_id }, (item) => stop(item, force ?? false, deps.clock.now()));
    return presentWork(row);
  };
