import type { Handler } from '@shared/bus/bus-server';
import type { workSubjects } from '@shared/bus/subjects/runtime';
import { changeWorkItem } from './work-change';
import { acknowledge, presentWork } from '../domain/work-lifecycle';
import type { RuntimeDeps } from '../deps';

/** queued -> starting: the poller has the item; its heartbeat lease starts now. */
export const ackWork =
  (deps: RuntimeDeps): Handler<typeof workSubjects.ack> =>
  async ({ environment_id, work_id }, ctx) => {
    const { after: row } = await changeWorkItem(deps, ctx, { environment_id, work_id }, (item) => acknowledge(item, deps.clock.now(), deps.config.WORK_LEASE_TTL_SECONDS * 1000));
    return presentWork(row);
  };
