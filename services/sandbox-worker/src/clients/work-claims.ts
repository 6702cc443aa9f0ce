import type { BusClient } from '@shared/bus/bus-client';
import { systemContext } from '@shared/bus/call-context';
import { workSubjects } from '@shared/bus/subjects/runtime';
import { newId } from '@shared/ids/ids';
import { POLL_BLOCK_MAX_MS, type Work } from '@shared/schema/work';

/** The one call the sandbox worker makes on the bus: the runtime's claim of the next cloud session. */
export interface WorkClaims {
  /** Blocks up to POLL_BLOCK_MAX_MS; the item comes acknowledged for this worker, with its secret. */
  next(): Promise<Work | null>;
}

/** A system call: no tenant, since the runtime chooses the tenant (fairly) among all of them. */
export function workClaims(bus: Pick<BusClient, 'call'>, workerId: string): WorkClaims {
  return {
    next: () => bus.call(workSubjects.claim, systemContext(newId('request')), { worker_id: workerId, block_ms: POLL_BLOCK_MAX_MS }),
  };
}
