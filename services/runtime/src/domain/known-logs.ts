import type { LoggedEvent } from './session-log';

/** One session's log as a drive left it: its events from the first, and how much of it is weighed. */
export interface KnownLog {
  events: LoggedEvent[];
  weighed: number;
  bytes: number;
}

/**
 * What a replica keeps of logs between drives, at most, as JSON: a few KB for each of thousands
 * of sessions. Held as objects they take two to three times that, well inside the runtime pod's
 * memory request (256 MiB in the chart) beside everything else.
 */
const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

/**
 * The session logs this replica's drives have read, kept between drives, so that a drive reads
 * only what came after them: each drive read its session's whole log again, in chunks of 20 rows,
 * every turn of a long session more. Safe by the log's nature: append-only with dense sequences,
 * so what a drive read (and the appends it saw land, which continue it) is a prefix of the log
 * forever, whichever replica writes next; the next drive reads the rest after it. A log is handed
 * to one drive at a time (`take` removes it; a session's drives on one replica never overlap)
 * and kept again only when the drive ends well. Bounded by an estimate of its size (each event's
 * JSON, weighed once), the least recently kept going first; a log larger than the bound is not kept.
 */
export class KnownLogs {
  private readonly logs = new Map<string, KnownLog>();
  private bytes = 0;

  constructor(
    private readonly maxBytes = DEFAULT_MAX_BYTES,
    private readonly weigh: (event: LoggedEvent) => number = (e) => JSON.stringify(e.event).length + 32,
  ) {}

  /** The session's log as last kept (empty when none is), the drive's to grow until it keeps it again. */
  take(sessionId: string): KnownLog {
    const known = this.logs.get(sessionId);
    if (!known) return { events: [], weighed: 0, bytes: 0 };
    this.logs.delete(sessionId);
    this.bytes -= known.bytes;
    return known;
  }

  /** Keeps a drive's log for the session's next drive, weighing the events it added. */
  keep(sessionId: string, known: KnownLog): void {
    for (; known.weighed < known.events.length; known.weighed++) known.bytes += this.weigh(known.events[known.weighed]!);
    this.forget(sessionId);
    if (known.bytes > this.maxBytes) return;
    this.logs.set(sessionId, known);
    this.bytes += known.bytes;
    for (const [oldest, log] of this.logs) {
      if (this.bytes <= this.maxBytes) break;
      this.logs.delete(oldest);
      this.bytes -= log.bytes;
    }
  }

  /** Drops a session's log (the session was deleted). */
  forget(sessionId: string): void {
    const known = this.logs.get(sessionId);
    if (!known) return;
    this.logs.delete(sessionId);
    this.bytes -= known.bytes;
  }

  /** Bytes held, as estimated (for tests). */
  get size(): number {
    return this.bytes;
  }
}
