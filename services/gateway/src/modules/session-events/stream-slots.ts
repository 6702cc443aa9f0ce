import type { CallContext } from '@shared/bus/call-context';
import { ApiError } from '@shared/errors/api-error';

/**
 * At most `limit` open streams per tenant (organization + workspace) on one gateway replica:
 * each holds a connection, a subscription entry and a periodic log read, so one tenant cannot
 * take a replica's sockets from the others. Refused with 429 naming the limit.
 */
export class StreamSlots {
  private readonly open = new Map<string, number>();
  constructor(private readonly limit: number) {}

  acquire(call: CallContext): () => void {
    const key = `${call.tenant?.organization_id}/${call.tenant?.workspace_id}`;
    const count = this.open.get(key) ?? 0;
    if (count >= this.limit) {
      throw new ApiError(
        'rate_limit_error',
        `session event streams: at most ${this.limit} open at once per workspace on one gateway replica; close one first`,
      );
    }
    this.open.set(key, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(key) ?? 1) - 1;
      if (left === 0) this.open.delete(key);
      else this.open.set(key, left);
    };
  }
}
