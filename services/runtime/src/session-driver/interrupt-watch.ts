import type { CallContext } from '@shared/bus/call-context';
import type { RuntimeDeps } from '../deps';

/** A model request's watch on its session's log. */
export interface InterruptWatch {
  /** Aborts once a user.interrupt landed after the request began, or the session was deleted. */
  readonly signal: AbortSignal;
  /** The log's last sequence as the watch last read it: where the request's end is recorded. */
  readonly logEnd: number;
  stop(): void;
}

/**
 * Watches a session's log while a model request is in flight, so an interrupt stops the request
 * at once instead of its answer being paid for and waited on to the end, then thrown away (the
 * turn is over). Hears of appends from this replica's follower of the log notices (core NATS) and
 * reads only what came after the last read. A notice lost costs only promptness: the request
 * finishes, its append is refused (the log moved on) and the interrupt is handled after it.
 */
export function watchForInterrupt(deps: RuntimeDeps, ctx: CallContext, sessionId: string, after: number): InterruptWatch {
  const controller = new AbortController();
  let logEnd = after;
  let reading = false;
  let again = false;
  const read = async () => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        const added = await deps.sessions.readLog(ctx, sessionId, logEnd);
        logEnd = added.at(-1)?.sequence ?? logEnd;
        if (added.some(({ event }) => event.type === 'user.interrupt')) controller.abort();
      } while (again && !controller.signal.aborted);
    } catch {
      // The read failed: the request goes on, and the interrupt is handled once it is recorded.
    } finally {
      reading = false;
    }
  };
  const stop = deps.sessionLog.listen(sessionId, (notice) => {
    if (notice.kind === 'deleted') controller.abort();
    else if (notice.sequence > logEnd && !controller.signal.aborted) void read();
  });
  return {
    signal: controller.signal,
    get logEnd() {
      return logEnd;
    },
    stop,
  };
}
