/** What the sandbox worker reads of a process from /proc/<pid>/stat. */
export interface ProcessStat {
  pid: number;
  ppid: number;
  /** One letter: R, S, D, Z (a zombie: dead, waiting to be reaped), ... */
  state: string;
  /** When it started, in clock ticks since boot. */
  startTime: number;
}

/**
 * Parses /proc/<pid>/stat. The command name (the second field, in parentheses) may hold spaces
 * and parentheses of its own, so the other fields are read after the last `)`.
 */
export function parseProcStat(text: string): ProcessStat | undefined {
  const close = text.lastIndexOf(')');
  if (close < 0) return undefined;
  const pid = Number.parseInt(text, 10);
  // Fields 3 onwards: state (3), ppid (4), ..., starttime (22).
  const rest = text.slice(close + 2).split(' ');
  const ppid = Number.parseInt(rest[1] ?? '', 10);
  const startTime = Number.parseInt(rest[19] ?? '', 10);
  if (!Number.isInteger(pid) || !Number.isInteger(ppid) || !Number.isInteger(startTime) || !rest[0]) return undefined;
  return { pid, ppid, state: rest[0], startTime };
}

/**
 * What a session left running once its process is gone: the worker's children that started no
 * earlier than the session's process (its orphans, which the worker adopts as their subreaper,
 * however they detached: a background job, a double fork, setsid) and all their descendants.
 * Zombies are left out (they are dead already). The start time keeps out anything the worker's
 * own process started before the session, which is nothing in a worker of its own (in a test
 * runner that hosts one, it may be something).
 */
export function leftoverProcesses(workerPid: number, sessionStartTime: number, processes: readonly ProcessStat[]): number[] {
  const children = new Map<number, ProcessStat[]>();
  for (const p of processes) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const found: number[] = [];
  const visit = (p: ProcessStat) => {
    if (p.state !== 'Z') found.push(p.pid);
    for (const child of children.get(p.pid) ?? []) visit(child);
  };
  for (const orphan of children.get(workerPid) ?? []) if (orphan.startTime >= sessionStartTime) visit(orphan);
  return found;
}
