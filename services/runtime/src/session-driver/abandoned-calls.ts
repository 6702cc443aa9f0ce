import type { TenantIds } from '@shared/schema/tenant';
import { abandonedCallEvents, workerOwedCalls } from '../domain/abandoned-calls';
import type { RuntimeDeps } from '../deps';
import { appendAtLogEnd } from './session-log-writes';

/** After a worker ended its item: the calls it left open closed as failed (domain/abandoned-calls.ts). */
export function closeAbandonedCalls(deps: RuntimeDeps, tenant: TenantIds, sessionId: string, workId: string, reason?: string): Promise<void> {
  return appendAtLogEnd(deps, tenant, sessionId, `req_runtime_stop_${workId}`, (state) => {
    const owed = workerOwedCalls(state);
    return owed.length === 0 ? undefined : abandonedCallEvents(workId, owed, reason);
  });
}
