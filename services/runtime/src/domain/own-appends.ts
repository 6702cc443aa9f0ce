/**
 * The appends a replica's drives made themselves, remembered a while by session so that their
 * notices, which announce nothing the drive did not already know, start no drive and count as no
 * demand (two of a turn's three notices). A notice is the drive's own when it ends at the
 * sequence one of them ended at and added as many events: one append ends at a sequence (they
 * are given under the session's lock), and a notice without an append (an archive) adds none,
 * so it is never taken for one. Forgetting costs only what every notice cost before: a drive
 * that reads the session and finds nothing to do. A drive's appends ask for no notice at all
 * (`caller_drives`); these are the notices of a deployments replica older than that.
 */
export class OwnAppends {
  /** Per session, most recently used last: its appends' last sequences and how many events each added. */
  private readonly sessions = new Map<string, Map<number, number>>();

  constructor(
    private readonly maxSessions = 10_000,
    private readonly perSession = 8,
  ) {}

  /** A drive's append, about to be sent: it adds `count` events, the last at `last`. */
  add(sessionId: string, last: number, count: number): void {
    const ends = this.sessions.get(sessionId) ?? new Map<number, number>();
    this.sessions.delete(sessionId);
    ends.set(last, count);
    if (ends.size > this.perSession) ends.delete(ends.keys().next().value!);
    this.sessions.set(sessionId, ends);
    if (this.sessions.size > this.maxSessions) this.sessions.delete(this.sessions.keys().next().value!);
  }

  /** Whether a notice (the log ends at `sequence`, `appended` events added) is of one of those appends. */
  has(sessionId: string, sequence: number, appended: number | undefined): boolean {
    return appended !== undefined && appended > 0 && this.sessions.get(sessionId)?.get(sequence) === appended;
  }
}
