import type { Session } from '@shared/schema/session';
import { LoggedEvents } from '@shared/schema/session-event';
import { isValid } from '@shared/validation/validate';
import type { LoggedEvent } from './session-log';

/** One session's log as a drive left it: its events from the first, and how much of it is weighed. */
export interface KnownLog {
  events: LoggedEvent[];
  weighed: number;
  bytes: number;
  /** The session as the drive last read it, with its row's revision (none from an older deployments replica). */
  session?: HeldSession;
}

export interface HeldSession {
  value: Session;
  revision: number | undefined;
  /** Its JSON's size once weighed (undefined until kept). */
  bytes?: number;
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

  /** Keeps a drive's log (and the session it read) for the session's next drive, weighing what it added. */
  keep(sessionId: string, known: KnownLog): void {
    for (; known.weighed < known.events.length; known.weighed++) known.bytes += this.weigh(known.events[known.weighed]!);
    if (known.session && known.session.bytes === undefined) {
      known.session.bytes = JSON.stringify(known.session.value).length;
      known.bytes += known.session.bytes;
    }
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

/** The session a drive read, held with its log from now on (the one held before no longer weighs). */
export function holdSession(known: KnownLog, session: Session, revision: number | undefined): void {
  known.bytes -= known.session?.bytes ?? 0;
  known.session = { value: session, revision };
}

/**
 * A drive's read replaced by its notice (`sessions.log_appended` with its events and the session
 * row's revision): the events to add to the log this replica holds, when they continue it with
 * no gap and the session it holds is the one the append saw (same revision: no change of the row
 * since it was read). Undefined, and the drive reads, whenever anything says otherwise: no events
 * in the notice (too large, an older deployments replica, an archive's), no session held or one
 * of another revision, a gap, or a `session.*` event (a status the row sums up, an update).
 */
export function noticedContinuation(known: KnownLog, noticed: NoticedAppend): LoggedEvent[] | undefined {
  const held = known.session;
  if (!held || held.revision === undefined || noticed.revision !== held.revision || noticed.events === undefined) return undefined;
  const events = parsedEvents(noticed.events);
  let end = known.events.at(-1)?.sequence ?? 0;
  if (!events || events.length === 0 || events.at(-1)!.sequence !== noticed.sequence) return undefined;
  for (const logged of events) {
    if (logged.sequence !== end + 1 || logged.event.type.startsWith('session.')) return undefined;
    end = logged.sequence;
  }
  return events;
}

/** The notice's events as a follow read returns them; undefined when they are not (nothing is taken on trust). */
function parsedEvents(json: string): LoggedEvent[] | undefined {
  try {
    const parsed: unknown = JSON.parse(json);
    return isValid(LoggedEvents, parsed) ? (parsed as LoggedEvent[]) : undefined;
  } catch {
    return undefined;
  }
}

/** What a drive's notice said of the append that started it. */
export interface NoticedAppend {
  /** The log's end after the append. */
  sequence: number;
  revision: number | undefined;
  /** Its events as the notice carried them (LoggedEvents as JSON), if it did. */
  events: string | undefined;
}
