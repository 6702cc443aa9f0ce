import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { workSubjects } from '@shared/bus/subjects/runtime';
import { retryTransient } from '@shared/db/retry-transient';
import { found } from '@shared/errors/api-error';
import { findWorkItem, updateWorkItem } from '../db/work-items';
import { workNotFound } from '../domain/not-found';
import { heartbeat } from '../domain/work-lifecycle';
import type { RuntimeDeps } from '../deps';

/** Extends the worker's lease (fenced on the last heartbeat it saw) and tells it whether to stop. */
export const heartbeatWork =
  (deps: RuntimeDeps): Handler<typeof workSubjects.heartbeat> =>
  async ({ environment_id, work_id, expected_last_heartbeat }, ctx) => {
    const tenant = tenantOf(ctx);
    const ttlMs = deps.config.WORK_LEASE_TTL_SECONDS * 1000;
    const row = await retryTransient(() =>
      deps.db.transaction(async (tx) => {
        const item = found(await findWorkItem(tx, tenant, environment_id, work_id, { lock: true }), () => workNotFound(work_id));
        return updateWorkItem(tx, item, heartbeat(item, expected_last_heartbeat, deps.clock.now(), ttlMs));
      }),
    );
    const extended = row.state === 'starting' || row.state === 'active';
    return {
      type: 'work_heartbeat' as const,
      last_heartbeat: row.latestHeartbeatAt!.toISOString(),
      lease_extended: extended,
      state: row.state,
      ttl_seconds: deps.config.WORK_LEASE_TTL_SECONDS,
    };
  };
