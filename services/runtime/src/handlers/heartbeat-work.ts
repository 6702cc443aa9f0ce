import type { Handler } from '@shared/bus/bus-server';
import type { workSubjects } from '@shared/bus/subjects/runtime';
import { changeWorkItem } from './work-change';
import { heartbeat } from '../domain/work-lifecycle';
import type { RuntimeDeps } from '../deps';

/** Extends the worker's lease (fenced on the last heartbeat it saw) and tells it whether to stop. */
export const heartbeatWork =
  (deps: RuntimeDeps): Handler<typeof workSubjects.heartbeat> =>
  async ({ environment_id, work_id, expected_last_heartbeat }, ctx) => {
    const ttlMs = deps.config.WORK_LEASE_TTL_SECONDS * 1000;
    const { after: row } = await changeWorkItem(deps, ctx, { environment_id, work_id }, (item) => heartbeat(item, expected_last_heartbeat, deps.clock.now(), ttlMs));
    const extended = row.state === 'starting' || row.state === 'active';
    return {
      type: 'work_heartbeat' as const,
      last_heartbeat: row.latestHeartbeatAt!.toISOString(),
      lease_extended: extended,
      state: row.state,
      ttl_seconds: deps.config.WORK_LEASE_TTL_SECONDS,
    };
  };
