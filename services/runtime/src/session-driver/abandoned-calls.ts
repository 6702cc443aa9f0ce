import { systemContext } from '@shared/bus/call-context';
import { ApiError } from '@shared/errors/api-error';
import type { TenantIds } from '@shared/schema/tenant';
import { abandonedCallEvents, workerOwedCalls, type AbandonReason } from '../domain/abandoned-calls';
import { readLogState } from '../domain/session-log';
import type { RuntimeDeps } from '../deps';
import { appendAt } from './session-log-writes';

/** Appends are fenced on the log's end; a log moving this often is being answered by someone else anyway. */
const ATTEMPTS = 3;

/**
 * After a worker ended its item: the calls it left open closed as failed (domain/abandoned-calls.ts),
 * read and appended at the log's end, so a client's send or the driver's own step in between wins and
 * this one looks again. The append's own notice brings the driver, which finds the session at rest.
 */
export async function closeAbandonedCalls(deps: RuntimeDeps, tenant: TenantIds, sessionId: string, workId: string, reason?: AbandonReason): Promise<void> {
  const ctx = systemContext(`req_runtime_stop_${workId}`, { ...tenant, scope: 'read_write', key_id: 'runtime' });
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const log = await deps.sessions.readLog(ctx, sessionId).catch((err: unknown) => {
      // A deleted session has no calls left to close.
      if (err instanceof ApiError && err.type === 'not_found_error') return undefined;
      throw err;
    });
    if (!log) return;
    const state = readLogState(log);
    const owed = workerOwedCalls(state);
    if (owed.length === 0) return;
    if (await appendAt(deps, ctx, { sessionId, after: state.last }, abandonedCallEvents(workId, owed, reason))) return;
  }
}
