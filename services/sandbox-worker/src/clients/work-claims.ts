import type { BusClient } from '@shared/bus/bus-client';
import { systemContext } from '@shared/bus/call-context';
import { workSubjects } from '@shared/bus/subjects/runtime';
import { newId } from '@shared/ids/ids';
import type { RequestOf } from '@shared/bus/subject';
import type { ClaimedWork } from '@shared/schema/sandbox-policy';
import { POLL_BLOCK_MAX_MS, type Work } from '@shared/schema/work';

/** The sandbox worker's calls on the bus: the runtime's claim of the next cloud session, and the failure of one that cannot start. */
export interface WorkClaims {
  /** Blocks up to POLL_BLOCK_MAX_MS; the item comes acknowledged for this worker, with its secret and its sandbox's policy. */
  next(): Promise<ClaimedWork | null>;
  /** Stops the item, failing its session with a session.error carrying `message` (runtime.work.fail). */
  fail(item: Work, message: string): Promise<Work>;
  /** Logs a repository that could not be cloned as the SDK's session.error; the session runs on without it (runtime.work.report). */
  reportRepository(item: Work, error: RequestOf<typeof workSubjects.report>['error']): Promise<Work>;
}

/** System calls: no tenant, since the runtime chooses the tenant (fairly) among all of them. */
export function workClaims(bus: Pick<BusClient, 'call'>, workerId: string): WorkClaims {
  return {
    next: () => bus.call(workSubjects.claim, systemContext(newId('request')), { worker_id: workerId, block_ms: POLL_BLOCK_MAX_MS }),
    fail: (item, message) => bus.call(workSubjects.fail, systemContext(newId('request')), { work_id: item.id, message: message.slice(0, 2000) }),
    reportRepository: (item, error) =>
      bus.call(workSubjects.report, systemContext(newId('request')), { work_id: item.id, error: { ...error, message: error.message.slice(0, 2000) } }),
  };
}
