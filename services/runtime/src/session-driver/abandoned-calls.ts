import { systemContext } from '@shared/bus/call-context';
import { ApiError } from '@shared/errors/api-error';
import type { TenantIds } from '@shared/schema/tenant';
import { abandonedCallEvents, workerOwedCalls } from '../domain/abandoned-calls';
import { readLogState, type LogState } from '../domain/session-log';
import type { RuntimeEventBody } from '@shared/schema/session-event';
import type { RuntimeDeps } from '../deps';
import { appendAt } from './session-log-writes';

/** Appends are fenced on the log's end; a log moving this often is being answered by someone else anyway. */
const ATTEMPTS = 3;

/**
 * Appends what `build` makes of the session's log at the log's end, read and appended again when
 * a client's send or the driver's own step got in between (appends are fenced on the log's end);
 * nothing when `build` has nothing (or the session is gone). The append's own notice brings the
 * driver, which goes on from there.
 */
export async function appendAtLogEnd(deps: RuntimeDeps, tenant: TenantIds, sessionId: string, requestId: string, build: (state: LogState) => RuntimeEventBody[] | undefined): Promise<void> {
  const ctx = systemContext(requestId, { ...tenant, scope: 'read_write', key_id: 'runtime' });
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const log = await deps.sessions.readLog(ctx, sessionId).catch((err: unknown) => {
      // A deleted session takes nothing more.
      if (err instanceof ApiError && err.type === 'not_found_error') return undefined;
      throw err;
    });
    if (!log) return;
    const state = readLogState(log);
    const events = build(state);
    if (!events) return;
    if (await appendAt(deps, ctx, { sessionId, after: state.last }, events)) return;
  }
}

/** After a worker ended its item: the calls it left open closed as failed (domain/abandoned-calls.ts). */
export function closeAbandonedCalls(deps: RuntimeDeps, tenant: TenantIds, sessionId: string, workId: string, reason?: string): Promise<void> {
  return appendAtLogEnd(deps, tenant, sessionId, `req_runtime_stop_${workId}`, (state) => {
    const owed = workerOwedCalls(state);
    return owed.length === 0 ? undefined : abandonedCallEvents(workId, owed, reason);
  });
}
